import type { Bindings, Db } from "../env";
import { getDb } from "../db";
import { isD1Error } from "../lib/errors";
import { evaluateRecord, evaluationDb, markEvaluationFailed, type EvaluationJob } from "../services/evaluation/records";

import { enqueueBatchQa, markBatchQaFailed, runBatchQa, type BatchQaJob } from "../services/batch-qa";
import { ack, backoffSeconds, retry } from "./settle";
import { logError } from "../lib/log";

const MAX_ATTEMPTS = 3;
/** A batch QA job's last delivery (wrangler.toml max_retries + 1): after it the message is gone. */
const BATCH_QA_ATTEMPTS = 6;
/** An evaluation that failed is tried again after 20, then 40 s. */
const RETRY = { first: 20, max: 300 };

/**
 * Batch QA jobs (`kind: "batchQa"`) answer the next questions of a batch and send themselves
 * again while questions remain (src/services/batch-qa); a job failing at its last delivery fails its batch.
 *
 * Scores answered questions of assistants with `enableEvaluation` (CONTRACT section 13). Each
 * message names a record and its organization, whose data plane holds it (one sent before they named it is looked
 * up: `evaluationDb`); scoring is idempotent (see evaluateRecord), so redelivery is harmless.
 * A failure (the judge model down) retries the message with back-off; after the third try the
 * record is marked `failed`. Records whose message was lost are queued again by the housekeeping cron.
 */
export async function consumeChatbotEvaluation(batch: MessageBatch, env: Bindings) {
  const db = getDb(env.DB);
  for (const message of batch.messages) {
    const body = (message.body ?? {}) as Partial<EvaluationJob> & Partial<BatchQaJob>;
    if (body.kind === "batchQa" && typeof body.batchQaId === "string") {
      try {
        if (await runBatchQa(env, db, body.batchQaId)) await enqueueBatchQa(env, body.batchQaId);
        ack(message);
      } catch (err) {
        logError("batch QA failed", { batchQaId: body.batchQaId, attempts: message.attempts, error: String(err) });
        if (message.attempts < BATCH_QA_ATTEMPTS) retry(message, 10);
        else {
          await markBatchQaFailed(db, body.batchQaId);
          ack(message);
        }
      }
      continue;
    }
    const { recordId } = body;
    if (typeof recordId !== "string") {
      ack(message);
      continue;
    }
    const organizationId = typeof body.organizationId === "string" ? body.organizationId : undefined;
    let data: Db | null = null;
    try {
      data = await evaluationDb(env, { recordId, organizationId });
      if (data) await evaluateRecord(env, db, data, recordId);
      ack(message);
    } catch (err) {
      logError("evaluation failed", { recordId, attempts: message.attempts, error: String(err) });
      if (message.attempts < MAX_ATTEMPTS) retry(message, backoffSeconds(message.attempts, RETRY));
      else {
        // Not marked, the record stays pending and the housekeeping cron queues it again.
        if (data)
          await markEvaluationFailed(data, recordId).catch((e) => {
            if (!isD1Error(e)) throw e;
            logError("evaluation not marked failed", { recordId, error: String(e) });
          });
        ack(message);
      }
    }
  }
}
