import type { Bindings } from "../env";
import { getDb } from "../db";
import { deliver } from "../services/webhooks/delivery";
import type { DeliveryMessage } from "../services/webhooks/emit";

/**
 * Consumer of `webhook-deliveries`: each message names one delivery record. Sending is idempotent
 * (the record is claimed once), so a redelivered message is acknowledged without a second push.
 * Only an unexpected error (the database unreachable, say) leaves the message for a retry.
 */
export async function consumeWebhookDeliveries(batch: MessageBatch, env: Bindings) {
  const db = getDb(env.DB);
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        await deliver(env, db, (message.body as DeliveryMessage).deliveryId);
        message.ack();
      } catch (err) {
        console.error(JSON.stringify({ level: "error", message: "webhook delivery failed", error: String(err) }));
        message.retry({ delaySeconds: 10 });
      }
    }),
  );
}
