import { eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../env";
import { contacts, conversations, inboxes, messages, users } from "../../db/schema";
import { chunk } from "../../lib/sql";
import type { WebhookEventData } from "./payloads";

const assignees = alias(users, "assignees");

/** Everything a payload may show about each message, by message id (one query per 90 messages). */
export async function eventData(db: Db, messageIds: string[]): Promise<Map<string, WebhookEventData>> {
  const rows = (await Promise.all(chunk(messageIds).map((ids) => eventRows(db, ids)))).flat();
  return new Map(rows.map((row) => [row.message.id, eventOf(row)]));
}

const eventRows = (db: Db, messageIds: string[]) =>
  db
    .select({
      message: messages,
      conversation: conversations,
      inbox: inboxes,
      contact: contacts,
      assignee: { id: assignees.id, name: assignees.name },
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .innerJoin(inboxes, eq(inboxes.id, conversations.inboxId))
    .leftJoin(contacts, eq(contacts.id, conversations.contactId))
    .leftJoin(assignees, eq(assignees.id, conversations.assigneeId))
    .where(inArray(messages.id, messageIds));

function eventOf({
  message: m,
  conversation: c,
  inbox,
  contact,
  assignee,
}: Awaited<ReturnType<typeof eventRows>>[number]): WebhookEventData {
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
