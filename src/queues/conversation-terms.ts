import type { Bindings } from "../env";
import { isTermsJob, termsStatements, type TermsMessage } from "../services/conversation/search-terms";
import { ackAll, retryAll } from "./settle";

/**
 * Writes the search terms the pipeline sent (services/conversation/search-terms.ts), the whole batch
 * in one transaction: a failure retries it all (rows are upserts, so a batch written twice only sets
 * `last_at` again). A body that is not a list of jobs can only come from a deployment's bug: it is logged and
 * dropped rather than retried forever.
 */
export async function consumeConversationTerms(batch: MessageBatch, env: Bindings) {
  const jobs = batch.messages.flatMap((message) => {
    const { jobs } = (message.body ?? {}) as Partial<TermsMessage>;
    if (Array.isArray(jobs) && jobs.every(isTermsJob)) return jobs;
    console.error(JSON.stringify({ level: "error", message: "not a terms message", messageId: message.id }));
    return [];
  });
  try {
    const statements = termsStatements(env.DB, jobs);
    if (statements.length) await env.DB.batch(statements);
    ackAll(batch);
  } catch (err) {
    const attempts = Math.max(...batch.messages.map((m) => m.attempts));
    console.error(
      JSON.stringify({ level: "error", message: "search terms not written", attempts, error: String(err) }),
    );
    retryAll(batch, Math.min(300, 5 * 2 ** attempts));
  }
}
