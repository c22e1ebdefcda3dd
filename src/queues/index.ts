import type { Bindings } from "../env";
import { consumeWebhookDeliveries } from "./webhook-deliveries";

export const QUEUES = {
  webhookDeliveries: "webhook-deliveries",
  knowledgeIngestion: "knowledge-ingestion",
} as const;

type Consumer = (batch: MessageBatch, env: Bindings, ctx: ExecutionContext) => Promise<void>;

/**
 * Consumers by queue name. Knowledge ingestion (issue 5) registers here; until then its messages
 * are retried later rather than dropped.
 */
const consumers: Partial<Record<string, Consumer>> = {
  [QUEUES.webhookDeliveries]: consumeWebhookDeliveries,
};

export async function handleQueue(batch: MessageBatch, env: Bindings, ctx: ExecutionContext) {
  const consumer = consumers[batch.queue];
  if (!consumer) {
    console.warn(JSON.stringify({ level: "warn", message: "no consumer for queue", queue: batch.queue }));
    batch.retryAll({ delaySeconds: 60 });
    return;
  }
  await consumer(batch, env, ctx);
}
