// What a completion reads before it asks the model, in at most one D1 round trip, remembered per
// isolate (docs/decisions.md, "Per-isolate caches"): the assistant, and the conversation and contact.
import { and, eq, inArray, sql } from "drizzle-orm";
import { batch, prepared, rowMapper } from "../../db/prepared";
import type { Db } from "../../env";
import {
  chatbotGroups,
  chatbotKnowledgeBases,
  chatbots,
  contacts,
  conversations,
  groupMembers,
  groupPermissions,
  groups,
  inboxes,
  knowledgeBases,
  members,
  models,
  organizations,
} from "../../db/schema";
import { tableCache } from "../../db/write-watch";
import { isUuid } from "../../lib/ids";
import type { OrgAccess } from "../access";
import type { ModelRow } from "../models";
import { knowledgeBasesOfChatbot, type KnowledgeBaseRow } from "../knowledge/knowledge-bases";
import { type ChatbotRow, visibleChatbotsCondition } from "./visibility";

type ConversationRow = typeof conversations.$inferSelect;
type ContactRow = typeof contacts.$inferSelect;

/** What a reply needs of an assistant, as the caller may see it. */
export interface AssistantForReply {
  chatbot: ChatbotRow;
  model: ModelRow | null;
  /** Its default inbox in the caller's organization (API conversations start there). */
  defaultInboxId: string | null;
  knowledgeBases: KnowledgeBaseRow[];
}

/**
 * Assistants as replies need them, remembered for 2 seconds per isolate (like API keys and access;
 * docs/decisions.md, "Per-isolate caches"), by organization, user and assistant since visibility
 * depends on all three (null: not visible). A write to what they are read from (the assistant, its
 * groups, the member's groups and permissions, its model, inbox and knowledge bases) clears them in
 * this isolate at once.
 */
const assistants = tableCache<AssistantForReply | null>([
  chatbots,
  chatbotGroups,
  members,
  groups,
  groupMembers,
  groupPermissions,
  models,
  inboxes,
  knowledgeBases,
  chatbotKnowledgeBases,
]);

/**
 * Everything a completion reads before it can ask the model, in at most one D1 round trip: the
 * assistant if the caller may see it, its language model, default inbox and knowledge bases (unless
 * remembered); with `conversationId`, that conversation of the organization; with `contactId`, that
 * contact of the organization, else the conversation's own contact. Only plain single-table
 * selects: a D1 batch returns rows keyed by column name, so joined tables' same-named columns would
 * collide. The assistant is read on the control plane (`db`), the conversation and contact on the organization's data
 * plane (`data`; `db` when not given).
 */
export async function readForReply(
  db: Db,
  access: OrgAccess,
  userId: string,
  id: string,
  turn: { conversationId?: string; contactId?: string },
  data: Db = db,
  /** The conversation's part of the data plane (services/shards/parts.ts), which holds a copy of its contact. */
  part: Db = data,
) {
  if (!isUuid(id)) return null;
  const org = access.organizationId;
  const turnReads: D1PreparedStatement[] = [];
  if (turn.conversationId)
    turnReads.push(conversationInOrganization(part, { id: turn.conversationId, organizationId: org }));
  // A sender is any of the organization's contacts: read where every contact is (services/shards/contact-copies.ts).
  if (turn.contactId) turnReads.push(contactInOrganization(data, { id: turn.contactId, organizationId: org }));
  else if (turn.conversationId)
    turnReads.push(contactOfConversation(part, { conversationId: turn.conversationId, organizationId: org }));
  // Two D1 calls at once when neither is remembered (every 2 s), else one or none.
  const [assistant, rows] = await Promise.all([
    assistants.remember(`${org}:${userId}:${id}`, async () => {
      const [[chatbot], [model], [inbox], knowledgeBases] = (await db.batch([
        db
          .select()
          .from(chatbots)
          .where(and(eq(chatbots.id, id), visibleChatbotsCondition(access, userId))),
        db
          .select()
          .from(models)
          .where(
            inArray(
              models.id,
              db.select({ id: chatbots.largeLanguageModelId }).from(chatbots).where(eq(chatbots.id, id)),
            ),
          ),
        db
          .select({ id: inboxes.id })
          .from(inboxes)
          .where(and(eq(inboxes.chatbotId, id), eq(inboxes.isDefault, true), eq(inboxes.organizationId, org))),
        knowledgeBasesOfChatbot(db, id),
      ])) as [ChatbotRow[], ModelRow[], { id: string }[], KnowledgeBaseRow[]];
      return chatbot ? { chatbot, model: model ?? null, defaultInboxId: inbox?.id ?? null, knowledgeBases } : null;
    }),
    turnReads.length
      ? readTurn(part === data || !turn.contactId ? part : null, org, turn, turnReads)
      : { conversation: null, contact: null },
  ]);
  if (!assistant) return null;
  return { ...assistant, ...rows };
}

type TurnRows = { conversation: ConversationRow | null; contact: ContactRow | null };
const turnKey = (organizationId: string, turn: { conversationId?: string; contactId?: string }) =>
  `${organizationId}:${turn.conversationId ?? ""}:${turn.contactId ?? ""}`;

/**
 * A turn's conversation and contact, remembered for 2 seconds per isolate like assistants when both
 * were found; a write to contacts or conversations (or a deletion that takes them along: an inbox,
 * an assistant, an organization) clears it. The conversation pipeline's own writes do not
 * (`keepsCaches` in services/conversations.ts): the row may lag behind the messages since, and its
 * object brings it up to date from its own writes (durable-objects/conversation.ts, #load), and the
 * route keeps the row each turn leaves (`rememberTurnConversation`); the contact is as read.
 */
const turns = tableCache<TurnRows>([conversations, contacts, inboxes, chatbots, organizations]);

async function readTurn(
  db: Db | null,
  organizationId: string,
  turn: { conversationId?: string; contactId?: string },
  reads: D1PreparedStatement[],
): Promise<TurnRows> {
  let rows: TurnRows = { conversation: null, contact: null };
  const remembered = await turns.remember(turnKey(organizationId, turn), async () => {
    // One batch, or each read on its own when the conversation's part is not where its sender is.
    const results = db ? await batch(db, reads) : await Promise.all(reads.map((r) => r.all()));
    const [conversation] = turn.conversationId ? results.shift()!.results.map(conversationRow) : [];
    const [contact] = results.shift()!.results.map(contactRow);
    rows = { conversation: conversation ?? null, contact: contact ?? null };
    // Only what was found is remembered.
    const contactFound = !!rows.contact || (!turn.contactId && !!rows.conversation && !rows.conversation.contactId);
    return (!turn.conversationId || rows.conversation) && contactFound ? rows : undefined;
  });
  return remembered ?? rows;
}

/** The conversation as a turn left it, for the next turn of this caller to start from (see `turns`). */
export function rememberTurnConversation(
  organizationId: string,
  turn: { conversationId: string; contactId?: string },
  conversation: ConversationRow,
) {
  const key = turnKey(organizationId, turn);
  const rows = turns.get(key);
  if (rows) turns.replace(key, { ...rows, conversation });
}

// A completion's reads of its conversation and contact, built once per isolate (db/prepared.ts).
const inOrganization = <T extends typeof conversations | typeof contacts>(table: T) =>
  prepared<{ id: string; organizationId: string }>((db) =>
    db
      .select()
      .from(table as typeof contacts)
      .where(and(eq(table.id, sql.placeholder("id")), eq(table.organizationId, sql.placeholder("organizationId")))),
  );
const conversationInOrganization = inOrganization(conversations);
const contactInOrganization = inOrganization(contacts);
const contactOfConversation = prepared<{ conversationId: string; organizationId: string }>((db) => {
  const [conversation, organization] = [sql.placeholder("conversationId"), sql.placeholder("organizationId")];
  const contactId = sql`(select ${conversations.contactId} from ${conversations}
    where ${conversations.id} = ${conversation} and ${conversations.organizationId} = ${organization})`;
  return db
    .select()
    .from(contacts)
    .where(and(sql`${contacts.id} = ${contactId}`, eq(contacts.organizationId, organization)));
});
const conversationRow = rowMapper(conversations);
const contactRow = rowMapper(contacts);
