import type { Bindings } from "../env";
import { getDb } from "../db";
import { ingestFile } from "../services/knowledge/ingestion";
import { type IngestionJob, purgeKnowledgeBase } from "../services/knowledge/content";
import { rebuildKeywordIndex } from "../services/knowledge/retrieval/knowledge-index";
import { ack, backoffSeconds, retry } from "./settle";
import { logError } from "../lib/log";

/** Deliveries of one message before its file is marked failed (wrangler.toml max_retries + 1). */
const MAX_ATTEMPTS = 4;
/** A job that failed is tried again after 10, 20, 40 s. */
const RETRY = { first: 10, max: 60 };

/**
 * Consumer of `knowledge-ingestion`. Each message is handled on its own, so one bad file does not
 * hold up the batch: file jobs parse and index a file (idempotent, see ingestFile); purge jobs remove
 * the vectors and stored bytes of a deleted knowledge base (purgeKnowledgeBase).
 */
export async function consumeKnowledgeIngestion(batch: MessageBatch, env: Bindings) {
  const db = getDb(env.DB);
  await Promise.all(
    batch.messages.map(async (message) => {
      const job = message.body as IngestionJob;
      try {
        if (job.kind === "file")
          await ingestFile(env, db, job.fileId, job.generation, {
            attempt: message.attempts,
            isLast: message.attempts >= MAX_ATTEMPTS,
          });
        else if (job.kind === "keywords") await rebuildKeywordIndex(env, db, job.knowledgeBaseId);
        // A base still there is asked again (its delete may not have committed yet); after the last try, its delete
        // failed after the jobs were queued and the job is dropped.
        else if (!(await purgeKnowledgeBase(env, db, job)) && message.attempts < MAX_ATTEMPTS) {
          retry(message, backoffSeconds(message.attempts, RETRY));
          return;
        }
        ack(message);
      } catch (err) {
        logError("knowledge ingestion failed", { job: job.kind, error: String(err), stack: (err as Error).stack });
        retry(message, backoffSeconds(message.attempts, RETRY));
      }
    }),
  );
}
