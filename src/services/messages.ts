// Reading a conversation's messages for the API: one message, or a cursor page over the conversation's sequence.
import { and, eq } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { messages } from "../db/schema";
import { notFound } from "../lib/errors";
import type { Cursor } from "../lib/pagination";
import { conversationObject } from "./conversations";
import { messageRecord, type MessageRecord } from "./records/messages";

/** One message of one of the organization's conversations; 404 otherwise. */
export async function findMessage(db: Db, organizationId: string, conversationId: string, id: string) {
  const [row] = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.id, id),
        eq(messages.conversationId, conversationId),
        eq(messages.organizationId, organizationId),
      ),
    );
  if (!row) throw notFound();
  return messageRecord(row);
}

/**
 * `pageSize + 1` messages of one of the organization's conversations from the cursor on, newest first (for
 * `cursorResponse`, keyed by `sequence`), read by the conversation's object from its own store (its `listMessages`).
 */
export const listMessages = (
  env: Bindings,
  organizationId: string,
  conversationId: string,
  cursor: Cursor | null,
  pageSize: number,
): Promise<MessageRecord[]> =>
  conversationObject(env, conversationId).listMessages(organizationId, conversationId, cursor, pageSize);
