import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../env";
import { chatbotRecords, usageHourly, usageHourlyTests } from "../../db/schema";
import type { ConversationRow, MessageRow } from "../conversations";
import { hourOf } from "./buckets";
import { logError } from "../../lib/log";

/** What a failed reply's record says: the error's detail or message, never a stack. */
export function failureText(err: unknown): string {
  const e = err as { detail?: unknown; message?: unknown } | null;
  const text = typeof e?.detail === "string" ? e.detail : typeof e?.message === "string" ? e.message : String(err);
  return text.slice(0, 1000) || "The reply failed.";
}

/**
 * A failed reply, counted in its hour and recorded on the question's record (its error), in one
 * batch. A later reply that succeeds (an owed reply's retry) overwrites the record and clears the
 * error (statistics/message-figures.ts); the failed attempt stays counted.
 */
export function failedReplyWrites(
  db: Db,
  conversation: ConversationRow,
  incoming: MessageRow,
  err: unknown,
  now = Date.now(),
): BatchItem<"sqlite">[] {
  if (!conversation.chatbotId) return [];
  const error = failureText(err);
  const counted = (table: typeof usageHourly | typeof usageHourlyTests) =>
    db
      .insert(table)
      .values({
        organizationId: conversation.organizationId,
        chatbotId: conversation.chatbotId!,
        hour: hourOf(now),
        memberId: conversation.createdById ?? "",
        modelId: "",
        failedReplies: 1,
      })
      .onConflictDoUpdate({
        target: [table.chatbotId, table.hour, table.memberId, table.modelId],
        set: { failedReplies: sql`${table.failedReplies} + 1` },
      });
  return [
    db
      .insert(chatbotRecords)
      .values({
        id: incoming.id,
        organizationId: conversation.organizationId,
        chatbotId: conversation.chatbotId,
        conversationId: conversation.id,
        contactId: conversation.contactId,
        inputMessage: incoming.content,
        error,
        createdAt: incoming.createdAt,
      })
      .onConflictDoUpdate({
        target: chatbotRecords.id,
        set: { error },
        setWhere: sql`${chatbotRecords.replyMessageId} IS NULL`,
      }),
    counted(usageHourly),
    // A test conversation's failure is also counted apart, as its messages are (message-figures.ts).
    ...(conversation.isTest ? [counted(usageHourlyTests)] : []),
  ];
}

/** Stores a failed reply's count and record (see failedReplyWrites); a statistics write never fails the turn. */
export async function recordFailedReply(
  db: Db,
  conversation: ConversationRow,
  incoming: MessageRow,
  err: unknown,
): Promise<void> {
  const writes = failedReplyWrites(db, conversation, incoming, err);
  if (writes.length)
    await db
      .batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])
      .catch((e) => logError("failed reply not counted", { error: String(e) }));
}
