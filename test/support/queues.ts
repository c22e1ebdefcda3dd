import { env } from "cloudflare:workers";
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import worker from "../../src/index";
import type { Bindings } from "../../src/env";

/** A message of a test batch: delivered for the `attempts`-th time (default the first). */
export interface QueuedMessage {
  id: string;
  body: unknown;
  attempts?: number;
}

/**
 * Runs the worker's queue handler (the consumer of `queue`) on one batch, as the platform would, with `bindings`
 * (default the test bindings): what it acknowledged and what it asked to retry.
 */
export async function runQueue(queue: string, messages: QueuedMessage[], bindings: Bindings = env) {
  const batch = createMessageBatch(
    queue,
    messages.map(({ id, body, attempts = 1 }) => ({ id, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue!(batch, bindings, ctx);
  return getQueueResult(batch, ctx);
}
