// A conversation as its record shows it: its own row and contact (the organization's data plane), and the names of
// the configuration it points at (inbox, assistant, assignee, team, labels), read apart from it because the two halves
// are to live in different databases (docs/scale.md §5 step 4: the data plane in the organization's shard, the
// configuration in `DB`). The names are the organization's, read at once beside the rows and remembered for 2 s per
// isolate, so a view costs no second round trip (docs/decisions.md, "Per-isolate caches").
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import {
  chatbots,
  contacts,
  conversationLabels,
  conversations,
  groups,
  inboxes,
  labels,
  members,
  users,
} from "../../db/schema";
import { alias } from "drizzle-orm/sqlite-core";
import { tableCache } from "../../db/write-watch";
import { notFound } from "../../lib/errors";
import { conversationDb } from "../shards/parts";
import { countedChatbotsCondition } from "../chatbots/quota";
import type { ConversationRow } from "../conversations";
import type { LabelRef } from "../labels";

export interface ConversationView {
  conversation: ConversationRow;
  inbox: { id: string; name: string; channelType: typeof inboxes.$inferSelect.channelType };
  contact: { id: string; name: string; avatar: string | null } | null;
  chatbot: { id: string; name: string } | null;
  assignee: { id: string; name: string } | null;
  team: { id: string; name: string } | null;
  /** By name. */
  labels: LabelRef[];
}

/** A conversation's label ids as a JSON array: a column of the page's own query, not a query per row. */
const labelIdsColumn = sql<string>`(SELECT json_group_array(${conversationLabels.labelId}) FROM ${conversationLabels}
  WHERE ${conversationLabels.conversationId} = ${conversations.id})`;

const rowFields = {
  conversation: conversations,
  contact: { id: contacts.id, name: contacts.name, avatar: contacts.avatar },
  labelIds: labelIdsColumn,
};

/** The data-plane half of a view: a query to which a caller adds its conditions, order and limit. */
export const selectConversationRows = (db: Db) =>
  db.select(rowFields).from(conversations).leftJoin(contacts, eq(contacts.id, conversations.contactId));

/** The label's links: the outer table of `selectLabelledRows`, named apart from the label ids' subquery's. */
export const labelled = alias(conversationLabels, "labelled");

/**
 * `selectConversationRows` read from a label's links outwards (the caller's condition names the label, `labelledBy`):
 * SQLite's `CROSS JOIN` keeps `labelled` the outer loop, so a page ordered by `labelled.conversationId` walks
 * `conversation_labels_label_idx` and reads only its own conversations, for a label on one conversation in three as
 * for one on a handful (docs/decisions.md, "The conversation list's indexes").
 */
export const selectLabelledRows = (db: Db) =>
  db
    .select(rowFields)
    .from(labelled)
    .crossJoin(conversations)
    .leftJoin(contacts, eq(contacts.id, conversations.contactId));

/** The condition of `selectLabelledRows`: the label's links, each to its conversation. */
export const labelledBy = (labelId: string) =>
  and(eq(labelled.labelId, labelId), eq(conversations.id, labelled.conversationId));

export type ConversationRows = Awaited<ReturnType<ReturnType<typeof selectConversationRows>["all"]>>;

type Named = { id: string; name: string };
/** The names an organization's conversations show, by id. */
interface OrganizationNames {
  inboxes: Map<string, ConversationView["inbox"]>;
  chatbots: Map<string, Named>;
  /** Its members' (assignees are members). */
  people: Map<string, Named>;
  teams: Map<string, Named>;
  /** By name. */
  labels: LabelRef[];
}

const remembered = tableCache<OrganizationNames>([inboxes, chatbots, members, users, groups, labels]);
const byId = <T extends { id: string }>(list: T[]) => new Map(list.map((x) => [x.id, x]));

/** The names of the organization's inboxes, assistants, members, teams and labels (one batch; bounded by its
 * configuration, not by its conversations). */
export function organizationNames(db: Db, organizationId: string): Promise<OrganizationNames> {
  return remembered.remember(organizationId, async () => {
    const [inboxRows, chatbotRows, people, teams, labelRows] = await db.batch([
      db
        .select({ id: inboxes.id, name: inboxes.name, channelType: inboxes.channelType })
        .from(inboxes)
        .where(eq(inboxes.organizationId, organizationId)),
      // The personal assistants it hosts too: their conversations are the organization's.
      db
        .select({ id: chatbots.id, name: chatbots.name })
        .from(chatbots)
        .where(countedChatbotsCondition(organizationId)),
      db
        .select({ id: users.id, name: users.name })
        .from(members)
        .innerJoin(users, eq(users.id, members.userId))
        .where(eq(members.organizationId, organizationId)),
      db.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.organizationId, organizationId)),
      db
        .select({ id: labels.id, name: labels.name, color: labels.color })
        .from(labels)
        .where(eq(labels.organizationId, organizationId))
        .orderBy(labels.name),
    ]);
    return {
      inboxes: byId(inboxRows),
      chatbots: byId(chatbotRows),
      people: byId(people),
      teams: byId(teams),
      labels: labelRows,
    };
  });
}

/**
 * The views of `rows` (a `selectConversationRows` result of one organization, whose `names` are given), in their
 * order. A row whose inbox is gone is left out, as the join that came before left it out; an assignee who is no
 * longer a member is read by id (people are not deleted, and the record still names them).
 */
async function viewsOf(db: Db, rows: ConversationRows, names: OrganizationNames): Promise<ConversationView[]> {
  const former = [
    ...new Set(
      rows.flatMap((r) =>
        r.conversation.assigneeId && !names.people.has(r.conversation.assigneeId) ? [r.conversation.assigneeId] : [],
      ),
    ),
  ];
  const formerPeople = former.length
    ? byId(await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, former)))
    : new Map<string, Named>();
  const pick = (map: Map<string, Named>, id: string | null) => (id && map.get(id)) || null;
  return rows.flatMap((r) => {
    const inbox = names.inboxes.get(r.conversation.inboxId);
    if (!inbox) return [];
    const own = new Set(JSON.parse(r.labelIds) as string[]);
    return [
      {
        conversation: r.conversation,
        inbox,
        contact: r.contact?.id ? r.contact : null,
        chatbot: pick(names.chatbots, r.conversation.chatbotId),
        assignee: pick(names.people, r.conversation.assigneeId) ?? pick(formerPeople, r.conversation.assigneeId),
        team: pick(names.teams, r.conversation.teamId),
        labels: names.labels.filter((l) => own.has(l.id)),
      },
    ];
  });
}

/** The views of the organization's conversations `rows` selects (on its data plane): the rows and the names (on `db`)
 * read at once. */
export async function conversationViews(
  db: Db,
  organizationId: string,
  rows: PromiseLike<ConversationRows>,
): Promise<ConversationView[]> {
  const [found, names] = await Promise.all([rows, organizationNames(db, organizationId)]);
  return found.length ? viewsOf(db, found, names) : [];
}

/** One conversation of the organization as its record shows it, or null: its row from the organization's data plane
 * (`data`), the names from `db`. */
export async function findConversation(
  db: Db,
  data: Db,
  organizationId: string,
  id: string,
): Promise<ConversationView | null> {
  const rows = selectConversationRows(data).where(
    and(eq(conversations.id, id), eq(conversations.organizationId, organizationId)),
  );
  const [view] = await conversationViews(db, organizationId, rows);
  return view ?? null;
}

/**
 * The organization's conversation `id`, read in its part (conversationDb), as the API shows it; 404 (saying `detail`)
 * when it has none of that id.
 */
export async function requireConversationIn(
  env: Bindings,
  db: Db,
  organizationId: string,
  id: string,
  detail?: string,
): Promise<ConversationView> {
  const view = await findConversation(db, await conversationDb(env, organizationId, id), organizationId, id);
  if (!view) throw notFound(detail);
  return view;
}
