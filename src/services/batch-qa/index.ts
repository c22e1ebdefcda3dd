import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { batchQaItems, batchQas, chatbots, models } from "../../db/schema";
import { uuidv7 } from "../../lib/ids";
import { generateReply } from "../conversation/replies";
import { knowledgeBasesOfChatbot } from "../knowledge/knowledge-bases";
import { scoreAnswer } from "../evaluation/judge";
import { lexicalScores } from "../evaluation/metrics";
import { contextTexts } from "../records/chatbot-records";
import { failureText } from "../statistics/failures";
import { assistantRefusal } from "../assistant-refusal";
import type { MessageRow } from "../conversations";
import type { QaRow } from "./parse";
import { logError, logWarn } from "../../lib/log";

export type BatchQaRow = typeof batchQas.$inferSelect;
export type BatchQaItemRow = typeof batchQaItems.$inferSelect;

/** Questions answered per queue message; the job sends itself again while questions remain. */
const ITEMS_PER_JOB = 10;
/**
 * A batch pending or running this long without an answer written has lost its queue message (or its consumer
 * died): one answer takes at most a model's time-out and its scoring, well under it.
 */
export const STALLED_BATCH_MS = 15 * 60_000;
/** D1 statements hold at most 100 kB: items are inserted in parts of about this many characters. */
const INSERT_CHARS = 60_000;

export interface BatchQaJob {
  kind: "batchQa";
  batchQaId: string;
}

export const enqueueBatchQa = (env: Bindings, batchQaId: string) =>
  env.EVALUATION_QUEUE.send({ kind: "batchQa", batchQaId } satisfies BatchQaJob);

/** A batch whose job the queue gives up on: failed, so that its page stops waiting (unanswered questions stay
 * pending). */
export const markBatchQaFailed = (db: Db, batchQaId: string) =>
  db
    .update(batchQas)
    .set({ status: "failed", finishedAt: Date.now() })
    .where(and(eq(batchQas.id, batchQaId), inArray(batchQas.status, ["pending", "running"])));

/** A new batch's first job queued; should the queue refuse it, the batch is failed (nothing else would start it). */
export const startBatchQa = (env: Bindings, db: Db, batchQaId: string) =>
  enqueueBatchQa(env, batchQaId).catch(async (err) => {
    logError("batch QA not queued; marked failed", { batchQaId, error: String(err) });
    await markBatchQaFailed(db, batchQaId);
  });

/** The batch and its questions, in one D1 batch (all or nothing). */
export async function createBatchQa(
  d1: D1Database,
  values: {
    organizationId: string;
    webChatId: string;
    chatbotId: string;
    createdById: string;
    file: string;
    filename: string;
  },
  rows: QaRow[],
): Promise<BatchQaRow> {
  const id = uuidv7();
  const now = Date.now();
  const row: BatchQaRow = {
    id,
    ...values,
    status: "pending",
    total: rows.length,
    completed: 0,
    failed: 0,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
  };
  const parts: string[] = [];
  let part: unknown[] = [];
  let size = 0;
  rows.forEach((r, i) => {
    const item = [uuidv7(), i + 1, r.question, r.expectedAnswer];
    const len = JSON.stringify(item).length;
    if (part.length && size + len > INSERT_CHARS) {
      parts.push(JSON.stringify(part));
      part = [];
      size = 0;
    }
    part.push(item);
    size += len;
  });
  if (part.length) parts.push(JSON.stringify(part));
  const items = d1.prepare(
    `INSERT INTO batch_qa_items (id, batch_qa_id, organization_id, position, question, expected_answer, status)
    SELECT json_extract(value, '$[0]'), ?1, ?2, json_extract(value, '$[1]'), json_extract(value, '$[2]'),
      json_extract(value, '$[3]'), 'pending'
    FROM json_each(?3)`,
  );
  await d1.batch([
    d1
      .prepare(
        "INSERT INTO batch_qas (id, organization_id, web_chat_id, chatbot_id, created_by_id, file, filename, " +
          "status, total, completed, failed, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, " +
          "0, 0, ?, ?)",
      )
      .bind(
        id,
        values.organizationId,
        values.webChatId,
        values.chatbotId,
        values.createdById,
        values.file,
        values.filename,
        rows.length,
        now,
        now,
      ),
    ...parts.map((json) => items.bind(id, values.organizationId, json)),
  ]);
  return row;
}

export async function findBatchQa(
  db: Db,
  organizationId: string,
  webChatId: string,
  id: string,
): Promise<BatchQaRow | null> {
  const [row] = await db
    .select()
    .from(batchQas)
    .where(and(eq(batchQas.id, id), eq(batchQas.organizationId, organizationId), eq(batchQas.webChatId, webChatId)));
  return row ?? null;
}

export const batchQaItemsOf = (db: Db, batchQaId: string) =>
  db.select().from(batchQaItems).where(eq(batchQaItems.batchQaId, batchQaId)).orderBy(asc(batchQaItems.position));

/**
 * Answers the next questions of a batch with its assistant, as a completion would (retrieval,
 * model, reply mode), but without a conversation: nothing is stored besides the item. Each item is
 * written once (conditional on still pending) together with the batch's counts, recomputed from the
 * items, so a redelivered job never counts twice. Once the plan's words of the month are used or the plan lapsed, the
 * questions still pending fail with the refusal's detail. Returns whether questions remain.
 */
export async function runBatchQa(env: Bindings, db: Db, batchQaId: string): Promise<boolean> {
  const [batch] = await db.select().from(batchQas).where(eq(batchQas.id, batchQaId));
  if (!batch || batch.status === "done" || batch.status === "failed") return false;
  const [assistant] = await db
    .select({ chatbot: chatbots, model: models })
    .from(chatbots)
    .leftJoin(models, eq(models.id, chatbots.largeLanguageModelId))
    .where(eq(chatbots.id, batch.chatbotId));
  if (!assistant) {
    await db.update(batchQas).set({ status: "failed", finishedAt: Date.now() }).where(eq(batchQas.id, batchQaId));
    return false;
  }
  const knowledgeBases = await knowledgeBasesOfChatbot(db, batch.chatbotId);
  if (batch.status === "pending")
    await db.update(batchQas).set({ status: "running", updatedAt: Date.now() }).where(eq(batchQas.id, batchQaId));
  const items = await db
    .select()
    .from(batchQaItems)
    .where(and(eq(batchQaItems.batchQaId, batchQaId), eq(batchQaItems.status, "pending")))
    .orderBy(asc(batchQaItems.position))
    .limit(ITEMS_PER_JOB + 1);
  let refused = false;
  for (const item of items.slice(0, ITEMS_PER_JOB)) {
    // Checked before each answer, as a conversation's reply is: a run may outlast the month's last words, or the plan.
    const refusal = await assistantRefusal(env, db, batch.organizationId);
    if (refusal) {
      await failPendingItems(db, batchQaId, refusal.detail);
      refused = true;
      break;
    }
    const started = Date.now();
    const incoming = questionMessage(batch, item);
    let update: Partial<BatchQaItemRow>;
    try {
      const reply = await generateReply(
        env,
        db,
        { ...assistant, knowledgeBases, history: [], incoming, contactQueryMetadata: null, unrecorded: true },
        () => undefined,
      );
      const replyMs = Date.now() - started;
      const scored = {
        question: item.question,
        answer: reply.content,
        contexts: contextTexts(reply.citationNodes),
        reference: item.expectedAnswer,
      };
      const scores = await scoreAnswer(env, db, scored).catch((err) => {
        // The answer was written: a judge that fails does not undo it. It is scored as without a judge (the lexical
        // approximations, docs/decisions.md "Statistics, records and evaluation"), and the judge's fault logged.
        logWarn("batch QA judge failed; lexical scores", { batchQaId, itemId: item.id, error: failureText(err) });
        return lexicalScores(scored);
      });
      update = {
        status: "done",
        answer: reply.content,
        citations: reply.citations,
        replyMs,
        ...scores,
        answeredAt: Date.now(),
      };
    } catch (err) {
      update = { status: "failed", error: failureText(err), replyMs: Date.now() - started, answeredAt: Date.now() };
    }
    await db.batch([
      db
        .update(batchQaItems)
        .set(update)
        .where(and(eq(batchQaItems.id, item.id), eq(batchQaItems.status, "pending"))),
      countItems(db, batchQaId),
    ]);
  }
  const remaining = !refused && items.length > ITEMS_PER_JOB;
  if (!remaining)
    await db
      .update(batchQas)
      .set({ status: "done", finishedAt: Date.now() })
      .where(and(eq(batchQas.id, batchQaId), eq(batchQas.completed, batchQas.total)));
  return remaining;
}

/** The batch's counts, recomputed from its items, and its progress. */
const countItems = (db: Db, batchQaId: string) =>
  db
    .update(batchQas)
    .set({
      completed: sql`(SELECT count(*) FROM batch_qa_items
        WHERE batch_qa_id = ${batchQaId} AND status <> 'pending')`,
      failed: sql`(SELECT count(*) FROM batch_qa_items WHERE batch_qa_id = ${batchQaId} AND status = 'failed')`,
      // Progress, which the housekeeping's look for stalled batches reads (requeueStalledBatchQas).
      updatedAt: Date.now(),
    })
    .where(eq(batchQas.id, batchQaId));

/**
 * Fails every question of the batch still pending with `error` (the plan's words of the month are used, or the plan
 * lapsed): none would be answered now, and the run ends with them shown as failed, saying why, rather than waiting.
 */
const failPendingItems = (db: Db, batchQaId: string, error: string) =>
  db.batch([
    db
      .update(batchQaItems)
      .set({ status: "failed", error, answeredAt: Date.now() })
      .where(and(eq(batchQaItems.batchQaId, batchQaId), eq(batchQaItems.status, "pending"))),
    countItems(db, batchQaId),
  ]);

/**
 * Cron: batches pending or running with no answer written for STALLED_BATCH_MS are sent to the queue again (a job
 * lost on its way or with its consumer); marked as progress, so the next run waits as long again. A job that was only
 * late then runs twice side by side, which costs model calls but never counts an answer twice (runBatchQa).
 * Returns the batches sent.
 */
export async function requeueStalledBatchQas(env: Bindings, db: Db, now = Date.now()): Promise<string[]> {
  const stalled = await db
    .select({ id: batchQas.id })
    .from(batchQas)
    .where(and(inArray(batchQas.status, ["pending", "running"]), lt(batchQas.updatedAt, now - STALLED_BATCH_MS)))
    .limit(100);
  const ids = stalled.map((b) => b.id);
  if (!ids.length) return ids;
  await db.update(batchQas).set({ updatedAt: now }).where(inArray(batchQas.id, ids));
  await env.EVALUATION_QUEUE.sendBatch(
    ids.map((batchQaId) => ({ body: { kind: "batchQa", batchQaId } satisfies BatchQaJob })),
  );
  return ids;
}

/** A question as the reply path reads an incoming message (never stored). */
function questionMessage(batch: BatchQaRow, item: BatchQaItemRow): MessageRow {
  return {
    id: item.id,
    organizationId: batch.organizationId,
    conversationId: batch.id,
    sequence: item.position,
    type: "incoming",
    senderType: "contact",
    private: false,
    senderId: null,
    senderName: "Batch QA",
    senderAvatar: null,
    content: item.question,
    contentPayload: null,
    attachments: null,
    citations: null,
    citationNodes: null,
    canvas: null,
    queryMetadata: null,
    metadata: null,
    skillIds: null,
    toolIds: null,
    feedback: null,
    wordsCount: 0,
    modelId: null,
    inputTokens: null,
    outputTokens: null,
    unanswered: false,
    createdAt: Date.now(),
  };
}
