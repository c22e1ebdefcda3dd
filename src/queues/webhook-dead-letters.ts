import type { Bindings } from "../env";
import { getDb } from "../db";
import { recordDeadLetters } from "../services/webhooks/dead-letters";
import { deliveryOf } from "../services/webhooks/emit";
import { byDataDb, inEachPart } from "./data-plane";
import { ackAll, retryAll } from "./settle";
import { logError } from "../lib/log";

/**
 * Consumer of `webhook-deliveries-dlq`, the dead-letter queue of `webhook-deliveries`: what the
 * delivery consumer could not handle. Each attempt named is recorded as a failure that says so
 * (src/services/webhooks/dead-letters.ts); a message naming none is logged with its body. If the
 * database is down here too, the batch is retried; messages dropped after that still leave their
 * attempts pending or claimed in D1, where the housekeeping cron finds them. Each attempt is recorded on its
 * organization's data plane (one named by a message sent before messages named it, on each).
 */
export async function consumeWebhookDeadLetters(batch: MessageBatch, env: Bindings) {
  const named: { id: string; organizationId: string | null }[] = [];
  for (const message of batch.messages) {
    const delivery = deliveryOf(message.body);
    if (delivery) named.push(delivery);
    else
      logError("dead-lettered webhook message names no delivery", {
        messageId: message.id,
        body: JSON.stringify(message.body ?? null).slice(0, 500),
      });
  }
  try {
    const db = getDb(env.DB);
    let recorded = 0;
    // Each of the organization's parts records what it holds (a delivery's id does not say its part).
    for (const [data, part] of await byDataDb(env, named, (n) => n.organizationId, inEachPart))
      recorded += await recordDeadLetters(
        env,
        db,
        data,
        part.map((n) => n.id),
      );
    logError("webhook deliveries dead-lettered", { messages: batch.messages.length, recorded });
    ackAll(batch);
  } catch (err) {
    logError("dead-lettered webhook deliveries not recorded", { size: named.length, error: String(err) });
    retryAll(batch, 60);
  }
}
