import { and, eq, inArray, lt } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { sendAll } from "../../lib/queues";
import { chatbotRecords } from "../../db/schema";
import { dataDbs } from "../shards";
import { conversationDb, dataParts } from "../shards/parts";
import { contextTexts } from "../records/chatbot-records";
import { scoreAnswer } from "./judge";

/** How long a record may stay pending before the housekeeping cron queues it again (a lost message). */
export const STRANDED_EVALUATION_MS = 60_000;

/** A record to score, with its organization: where its data plane lives (messages sent before it may lack it). */
export interface EvaluationJob {
  recordId: string;
  organizationId?: string;
  /** The record's conversation: which part of the organization's data plane holds it (absent in older messages). */
  conversationId?: string;
}

export async function enqueueEvaluations(env: Bindings, jobs: EvaluationJob[]): Promise<void> {
  await sendAll(
    env.EVALUATION_QUEUE,
    jobs.map(({ recordId, organizationId, conversationId }) => ({
      body: { recordId, organizationId, conversationId } satisfies EvaluationJob,
    })),
  );
}

/**
 * The data plane holding a job's record: the part of its organization's holding its conversation; for a message sent
 * before jobs named those, the database that has the record (null: none has it, deleted since).
 */
export async function evaluationDb(env: Bindings, job: EvaluationJob): Promise<Db | null> {
  if (job.organizationId && job.conversationId) return conversationDb(env, job.organizationId, job.conversationId);
  const candidates = job.organizationId ? await dataParts(env, job.organizationId) : dataDbs(env);
  for (const data of candidates) {
    const [found] = await data
      .select({ id: chatbotRecords.id })
      .from(chatbotRecords)
      .where(eq(chatbotRecords.id, job.recordId));
    if (found) return data;
  }
  return null;
}

/**
 * Scores one record of `data` and stores the scores, once: a record that is not pending (already scored,
 * or answered again and being scored) is left alone, and the update is conditional on the answer
 * scored being the one stored, so a redelivered message or a concurrent consumer changes nothing. The judge's model
 * is read from `db`, the configuration.
 */
export async function evaluateRecord(env: Bindings, db: Db, data: Db, recordId: string): Promise<"done" | "skipped"> {
  const [record] = await data.select().from(chatbotRecords).where(eq(chatbotRecords.id, recordId));
  if (record?.evaluationStatus !== "pending" || record.outputMessage === null) return "skipped";
  const scores = await scoreAnswer(env, db, {
    question: record.inputMessage,
    answer: record.outputMessage,
    contexts: contextTexts(record.context),
  });
  await data
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

/** Records of `data` still pending a while after their answer (their queue message was lost): for the cron. */
export async function strandedEvaluations(data: Db, now = Date.now()): Promise<EvaluationJob[]> {
  return data
    .select({
      recordId: chatbotRecords.id,
      organizationId: chatbotRecords.organizationId,
      conversationId: chatbotRecords.conversationId,
    })
    .from(chatbotRecords)
    .where(
      and(
        inArray(chatbotRecords.evaluationStatus, ["pending"]),
        lt(chatbotRecords.answeredAt, now - STRANDED_EVALUATION_MS),
      ),
    )
    .limit(500);
}

export const markEvaluationFailed = (data: Db, recordId: string) =>
  data
    .update(chatbotRecords)
    .set({ evaluationStatus: "failed" })
    .where(and(eq(chatbotRecords.id, recordId), eq(chatbotRecords.evaluationStatus, "pending")));
