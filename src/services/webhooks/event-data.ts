import { eq, inArray, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { contacts, conversations, inboxes, users } from "../../db/schema";
import { inChunks } from "../../lib/sql";
import type { MessageRow } from "../conversations";
import { storedMessages } from "../messages";
import type { DeliveryRow } from "./config";
import type { WebhookEventData } from "./payloads";

/** What `eventData` needs of a delivery of a message. */
export type MessageDelivery = Pick<DeliveryRow, "organizationId" | "messageId" | "conversationId">;

/**
 * Everything a payload may show about each delivery's message, by message id: the messages as their conversations'
 * objects hold them (one call per conversation, side by side, each given the delivery's organization), and the
 * conversations with their contact from `data` (the data plane) and their inbox and assignee from `db` (a query and
 * a batch per 90 conversations, beside the calls). A message, conversation or inbox that no longer exists is missing.
 */
export async function eventData(
  env: Bindings,
  db: Db,
  data: Db,
  deliveries: MessageDelivery[],
): Promise<Map<string, WebhookEventData>> {
  const groups = new Map<string, { organizationId: string; conversationId: string; ids: Set<string> }>();
  for (const { organizationId, messageId, conversationId } of await withConversations(data, deliveries)) {
    if (!messageId || !conversationId) continue;
    const key = `${organizationId}\n${conversationId}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { organizationId, conversationId, ids: new Set<string>() }));
    group.ids.add(messageId);
  }
  const [rows, found] = await Promise.all([
    inChunks(
      [...groups.values()].map((g) => g.conversationId),
      (ids) => conversationRows(db, data, ids),
    ),
    Promise.all(
      [...groups.values()].map(({ organizationId, conversationId, ids }) =>
        storedMessages(env, organizationId, conversationId).lookup([...ids].map((id) => ({ id }))),
      ),
    ),
  ]);
  const byId = new Map(rows.map((row) => [row.conversation.id, row]));
  const events = new Map<string, WebhookEventData>();
  for (const message of found.flat()) {
    const row = message && byId.get(message.conversationId);
    if (row && row.conversation.organizationId === message.organizationId)
      events.set(message.id, eventOf(message, row));
  }
  return events;
}

/**
 * The deliveries, each with its conversation. One written without it (by a worker older than migration 0035) finds
 * it, only then, in one query: by its message while D1 still holds it on its way to its conversation's object, else
 * in the payload an earlier attempt of the event sent (`conversation.id`).
 */
async function withConversations(data: Db, deliveries: MessageDelivery[]): Promise<MessageDelivery[]> {
  const unnamed = deliveries.flatMap((d) => (d.messageId && !d.conversationId ? [d.messageId] : []));
  if (!unnamed.length) return deliveries;
  const ids = JSON.stringify([...new Set(unnamed)]);
  const found = await data.all<{ id: string; conversationId: string }>(sql`
    select id, conversation_id as conversationId from messages where id in (select value from json_each(${ids}))
    union all
    select message_id, json_extract(request_body, '$.conversation.id') from webhook_deliveries
    where message_id in (select value from json_each(${ids})) and json_valid(request_body)
      and json_extract(request_body, '$.conversation.id') is not null`);
  const conversationOf = new Map(found.map((m) => [m.id, m.conversationId]));
  return deliveries.map((d) =>
    d.conversationId || !d.messageId ? d : { ...d, conversationId: conversationOf.get(d.messageId) ?? null },
  );
}

/**
 * The conversations with their contacts (the data plane, `data`), then their inboxes and assignees by id in one batch
 * on `db` (the configuration and the people, docs/scale.md §5 step 4). A conversation whose inbox is gone is left out.
 * Lifecycle events read theirs here too (conversation-event-data.ts), so both kinds show a conversation alike.
 */
export async function conversationRows(db: Db, data: Db, conversationIds: string[]) {
  const rows = await data
    .select({ conversation: conversations, contact: contacts })
    .from(conversations)
    .leftJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(inArray(conversations.id, conversationIds));
  if (!rows.length) return [];
  const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))];
  const [inboxRows, userRows] = await db.batch([
    db
      .select({ id: inboxes.id, name: inboxes.name, channelType: inboxes.channelType })
      .from(inboxes)
      .where(inArray(inboxes.id, distinct(rows.map((r) => r.conversation.inboxId)))),
    db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(inArray(users.id, distinct(rows.map((r) => r.conversation.assigneeId)))),
  ]);
  const inboxById = new Map(inboxRows.map((i) => [i.id, i]));
  const userById = new Map(userRows.map((u) => [u.id, u]));
  return rows.flatMap(({ conversation, contact }) => {
    const inbox = inboxById.get(conversation.inboxId);
    const assignee = (conversation.assigneeId && userById.get(conversation.assigneeId)) || null;
    return inbox ? [{ conversation, inbox, contact, assignee }] : [];
  });
}

type ConversationRowsEntry = Awaited<ReturnType<typeof conversationRows>>[number];

/** The conversation, its inbox and its contact as every event's data carries them (message or lifecycle event). */
export function conversationParts({
  conversation: c,
  inbox,
  contact,
  assignee,
}: ConversationRowsEntry): Pick<WebhookEventData, "conversation" | "inbox" | "contact"> {
  return {
    conversation: {
      id: c.id,
      title: c.title,
      type: c.type,
      status: c.status,
      progressStatus: c.progressStatus,
      autoReplyEnabled: c.autoReplyEnabled,
      assignee: assignee?.id ? { id: assignee.id, name: assignee.name } : null,
    },
    inbox: { id: inbox.id, name: inbox.name, channelType: inbox.channelType },
    contact: contact
      ? {
          id: contact.id,
          name: contact.name,
          email: contact.email,
          phoneNumber: contact.phoneNumber,
          sourceId: contact.sourceId,
        }
      : null,
  };
}

function eventOf(m: MessageRow, row: ConversationRowsEntry): WebhookEventData {
  return {
    message: {
      id: m.id,
      type: m.type,
      content: m.content,
      createdAt: m.createdAt,
      metadata: m.metadata ?? {},
      feedback: m.feedback,
      citations: m.citations ?? [],
    },
    ...conversationParts(row),
    sender: { id: m.senderId, name: m.senderName, avatar: m.senderAvatar, type: m.senderType },
    attachments: (m.attachments ?? []).map((a) => ({
      id: typeof a.id === "string" ? a.id : null,
      type: typeof a.type === "string" ? a.type : "other",
      filename: String(a.filename ?? ""),
      sourceUrl: typeof a.file === "string" ? a.file : "",
      fileUrl: typeof a.file === "string" ? a.file : "",
    })),
  };
}
