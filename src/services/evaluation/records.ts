import { and, eq, inArray, lt } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { chatbotRecords } from "../../db/schema";
import { contextTexts } from "../records/chatbot-records";
import { scoreAnswer } from "./judge";

/** How long a record may stay pending before the housekeeping cron queues it again (a lost message). */
export const STRANDED_EVALUATION_MS = 60_000;

export interface EvaluationJob {
  recordId: string;
}

export async function enqueueEvaluations(env: Bindings, recordIds: string[]): Promise<void> {
  for (let i = 0; i < recordIds.length; i += 100) {
    await env.EVALUATION_QUEUE.sendBatch(
      recordIds.slice(i, i + 100).map((recordId) => ({ body: { recordId } satisfies EvaluationJob })),
    );
  }
}

/**
 * Scores one record and stores the scores, once: a record that is not pending (already scored,
 * or answered again and being scored) is left alone, and the update is conditional on the answer
 * scored being the one stored, so a redelivered message or a concurrent consumer changes nothing.
 */
export async function evaluateRecord(env: Bindings, db: Db, recordId: string): Promise<"done" | "skipped"> {
  const [record] = await db.select().from(chatbotRecords).where(eq(chatbotRecords.id, recordId));
  if (record?.evaluationStatus !== "pending" || record.outputMessage === null) return "skipped";
  const scores = await scoreAnswer(env, db, {
    question: record.inputMessage,
    answer: record.outputMessage,
    contexts: contextTexts(record.context),
  });
  await db
    .update(chatbotRecords)
    .set({ ...scores, evaluationStatus: "done" })
    .where(
      and(
        eq(chatbotRecords.id, recordId),
        eq(chatbotRecords.evaluationStatus, "pending"),
        eq(chatbotRecords.replyMessageId, record.replyMessageId!),
      ),
    );
  return "done";
}

/** Records still pending a while after their answer (their queue message was lost): for the cron. */
export async function strandedEvaluations(db: Db, now = Date.now()): Promise<string[]> {
  const rows = await db
    .select({ id: chatbotRecords.id })
    .from(chatbotRecords)
    .where(
      and(
        inArray(chatbotRecords.evaluationStatus, ["pending"]),
        lt(chatbotRecords.answeredAt, now - STRANDED_EVALUATION_MS),
      ),
    )
    .limit(500);
  return rows.map((r) => r.id);
}

export const markEvaluationFailed = (db: Db, recordId: string) =>
  db
    .update(chatbotRecords)
    .set({ evaluationStatus: "failed" })
    .where(and(eq(chatbotRecords.id, recordId), eq(chatbotRecords.evaluationStatus, "pending")));
