// A conversation as its record shows it: its own row and contact (the organization's data plane), then the names of
// the configuration it points at (inbox, assistant, assignee, team, labels), read by their ids in one batch. Two reads,
// not one join, because the two halves are to live in different databases (docs/scale.md §5 step 4: the data plane in
// the organization's shard, the configuration in `DB`).
import { and, eq, inArray, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../../env";
import { chatbots, contacts, conversationLabels, conversations, groups, inboxes, labels, users } from "../../db/schema";
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

/** The data-plane half of a view: a query to which a caller adds its conditions, order and limit. */
export const selectConversationRows = (db: Db) =>
  db
    .select({
      conversation: conversations,
      contact: { id: contacts.id, name: contacts.name, avatar: contacts.avatar },
      labelIds: labelIdsColumn,
    })
    .from(conversations)
    .leftJoin(contacts, eq(contacts.id, conversations.contactId));

type ConversationRows = Awaited<ReturnType<ReturnType<typeof selectConversationRows>["all"]>>;

const idsOf = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))];

/**
 * The views of `rows` (a `selectConversationRows` result), in their order: the names they show read in one batch,
 * each by id within the rows' organizations. A row whose inbox is gone is left out, as the join that came before
 * left it out.
 */
export async function conversationViews(db: Db, rows: ConversationRows): Promise<ConversationView[]> {
  if (!rows.length) return [];
  const owners = idsOf(rows.map((r) => r.conversation.organizationId));
  const labelIds = rows.map((r) => JSON.parse(r.labelIds) as string[]);
  const scoped = (organizationId: AnySQLiteColumn, id: AnySQLiteColumn, ids: string[]) =>
    and(inArray(organizationId, owners), inArray(id, ids));
  const [inboxRows, chatbotRows, userRows, teamRows, labelRows] = await db.batch([
    db
      .select({ id: inboxes.id, name: inboxes.name, channelType: inboxes.channelType })
      .from(inboxes)
      .where(scoped(inboxes.organizationId, inboxes.id, idsOf(rows.map((r) => r.conversation.inboxId)))),
    db
      .select({ id: chatbots.id, name: chatbots.name })
      .from(chatbots)
      .where(scoped(chatbots.organizationId, chatbots.id, idsOf(rows.map((r) => r.conversation.chatbotId)))),
    // People belong to no organization of their own: an assignee is a member, checked when assigned.
    db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(inArray(users.id, idsOf(rows.map((r) => r.conversation.assigneeId)))),
    db
      .select({ id: groups.id, name: groups.name })
      .from(groups)
      .where(scoped(groups.organizationId, groups.id, idsOf(rows.map((r) => r.conversation.teamId)))),
    db
      .select({ id: labels.id, name: labels.name, color: labels.color })
      .from(labels)
      .where(scoped(labels.organizationId, labels.id, idsOf(labelIds.flat())))
      .orderBy(labels.name),
  ]);
  const byId = <T extends { id: string }>(list: T[]) => new Map(list.map((x) => [x.id, x]));
  const inboxById = byId(inboxRows);
  const [chatbotById, userById, teamById] = [chatbotRows, userRows, teamRows].map(byId);
  return rows.flatMap((r, i) => {
    const inbox = inboxById.get(r.conversation.inboxId);
    if (!inbox) return [];
    const own = new Set(labelIds[i]);
    const pick = (map: Map<string, { id: string; name: string }>, id: string | null) => (id && map.get(id)) || null;
    return [
      {
        conversation: r.conversation,
        inbox,
        contact: r.contact?.id ? r.contact : null,
        chatbot: pick(chatbotById, r.conversation.chatbotId),
        assignee: pick(userById, r.conversation.assigneeId),
        team: pick(teamById, r.conversation.teamId),
        labels: labelRows.filter((l) => own.has(l.id)),
      },
    ];
  });
}

/** One conversation of the organization as its record shows it, or null. */
export async function findConversation(db: Db, organizationId: string, id: string): Promise<ConversationView | null> {
  const rows = await selectConversationRows(db).where(
    and(eq(conversations.id, id), eq(conversations.organizationId, organizationId)),
  );
  const [view] = await conversationViews(db, rows);
  return view ?? null;
}
