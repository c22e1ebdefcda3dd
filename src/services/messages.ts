// Reading a conversation's messages for the API: one message, or a cursor page over the conversation's sequence.
import { and, eq } from "drizzle-orm";
import type { Db } from "../env";
import { messages } from "../db/schema";
import { cursorWindow } from "../db/paginate";
import { notFound } from "../lib/errors";
import type { Cursor } from "../lib/pagination";
import { messageRecord } from "./records/messages";

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

/** `pageSize + 1` messages of a conversation from the cursor on, newest first (for `cursorResponse`, keyed by
 * `sequence`). */
export async function listMessages(db: Db, conversationId: string, cursor: Cursor | null, pageSize: number) {
  const w = cursorWindow([messages.sequence], "desc", cursor, [Number(cursor?.k)], pageSize);
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), w.after))
    .orderBy(...w.orderBy)
    .limit(w.limit);
  return rows.map(messageRecord);
}
