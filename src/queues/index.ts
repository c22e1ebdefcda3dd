import type { Bindings } from "../env";
import { consumeWebhookDeliveries } from "./webhook-deliveries";
import { consumeWebhookDeadLetters } from "./webhook-dead-letters";
import { consumeKnowledgeIngestion } from "./knowledge-ingestion";
import { consumeChatbotEvaluation } from "./chatbot-evaluation";
import { consumeChannelWork } from "./channels";
import { retryAll } from "./settle";
import { logWarn } from "../lib/log";

export const QUEUES = {
  webhookDeliveries: "webhook-deliveries",
  /** Dead-letter queue of webhook-deliveries (wrangler.toml `dead_letter_queue`). */
  webhookDeadLetters: "webhook-deliveries-dlq",
  knowledgeIngestion: "knowledge-ingestion",
  chatbotEvaluation: "chatbot-evaluation",
  channelWork: "channel-work",
} as const;

type Consumer = (batch: MessageBatch, env: Bindings, ctx: ExecutionContext) => Promise<void>;

/** Consumers by queue name; a queue without one has its messages retried later rather than dropped. */
const consumers: Partial<Record<string, Consumer>> = {
  [QUEUES.webhookDeliveries]: (batch, env) => consumeWebhookDeliveries(batch, env),
  [QUEUES.webhookDeadLetters]: consumeWebhookDeadLetters,
  [QUEUES.knowledgeIngestion]: consumeKnowledgeIngestion,
  [QUEUES.chatbotEvaluation]: consumeChatbotEvaluation,
  [QUEUES.channelWork]: consumeChannelWork,
};

export async function handleQueue(batch: MessageBatch, env: Bindings, ctx: ExecutionContext) {
  const consumer = consumers[batch.queue];
  if (!consumer) {
    logWarn("no consumer for queue", { queue: batch.queue });
    retryAll(batch, 60);
    return;
  }
  await consumer(batch, env, ctx);
}
