import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../env";
import { messages, type WebChatSettings } from "../../db/schema";
import { cursorWindow } from "../../db/paginate";
import type { MessageRow } from "../conversations";
import { publicMessage, type PublicMessage } from "../records/widget";

/** The messages a visitor may read: every one but operators' private notes (the live stream leaves them out too:
 * durable-objects/conversation.ts). */
export const visitorVisible = () => eq(messages.private, false);

/**
 * A conversation's latest `pageSize` visible messages before sequence `before`, oldest first, and
 * whether older ones exist (the widget's history reads backwards from the newest).
 */
export async function conversationHistory(
  db: Db,
  conversationId: string,
  settings: WebChatSettings,
  before: number | undefined,
  pageSize: number,
): Promise<{ results: PublicMessage[]; hasMore: boolean }> {
  const w = cursorWindow([messages.sequence], "desc", before ? { k: before, d: "n" } : null, [before], pageSize);
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), visitorVisible(), w.after))
    .orderBy(...w.orderBy)
    .limit(w.limit);
  const page = rows.slice(0, pageSize).reverse();
  return { results: page.map((m) => publicMessage(m, settings)), hasMore: rows.length > pageSize };
}

/** The first `limit` visible messages of a conversation, oldest first, in their public form. */
export async function firstPublicMessages(
  db: Db,
  conversationId: string,
  settings: WebChatSettings,
  limit: number,
): Promise<PublicMessage[]> {
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), visitorVisible()))
    .orderBy(asc(messages.sequence))
    .limit(limit);
  return rows.map((m) => publicMessage(m, settings));
}

/** The assistant's reply `messageId` stored in this conversation, if any. */
export async function storedReply(db: Db, conversationId: string, messageId: string): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(
      and(eq(messages.id, messageId), eq(messages.conversationId, conversationId), eq(messages.senderType, "chatbot")),
    );
  return row;
}
