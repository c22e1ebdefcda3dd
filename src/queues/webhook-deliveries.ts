import type { Bindings } from "../env";
import { getDb } from "../db";
import { deliverAll } from "../services/webhooks/delivery";
import type { DeliveryMessage } from "../services/webhooks/emit";

/**
 * Consumer of `webhook-deliveries`: each message names one delivery record, and the whole batch is
 * sent at once. Sending is idempotent (a record is claimed once), so a redelivered message is
 * acknowledged without a second push. Only an unexpected error (the database unreachable, say)
 * leaves the batch for a retry; records it had claimed are sent again once their lease lapses.
 */
export async function consumeWebhookDeliveries(batch: MessageBatch, env: Bindings) {
  try {
    await deliverAll(env, getDb(env.DB), batch.messages.map((m) => (m.body as DeliveryMessage).deliveryId));
    batch.ackAll();
  } catch (err) {
    console.error(JSON.stringify({ level: "error", message: "webhook delivery failed", error: String(err) }));
    batch.retryAll({ delaySeconds: 10 });
  }
}
