import type { Bindings } from "../env";
import { getDb } from "../db";
import { deliverAll } from "../services/webhooks/delivery";
import { deliveryOf } from "../services/webhooks/emit";
import { byDataDb, inEachPart } from "./data-plane";
import { ack, backoffSeconds, retry } from "./settle";
import { logError } from "../lib/log";

/** Before a message the consumer failed on is tried again: 5, 10, 20 s; then (wrangler.toml max_retries) the
 * dead-letter queue. */
const RETRY = { first: 5, max: 60 };

/**
 * Consumer of `webhook-deliveries`: each message names one attempt (delivery record), and the whole
 * batch is sent at once. Sending is idempotent (a record is claimed once), so a redelivered message is
 * acknowledged without a second push. When the batch fails (the database unreachable, a record that
 * cannot be read), each message is tried alone so one bad record cannot hold up the others; those
 * that still fail are retried and, after the last retry, land in `webhook-deliveries-dlq`
 * (src/queues/webhook-dead-letters.ts). A message naming no attempt goes there at once. The attempts are sent from
 * their organization's data plane (one sent before messages named it is looked for in each).
 * `now` is the clock, injectable for tests.
 */
export async function consumeWebhookDeliveries(batch: MessageBatch, env: Bindings, now?: number) {
  const db = getDb(env.DB);
  const named: { message: Message; id: string; organizationId: string | null }[] = [];
  for (const message of batch.messages) {
    const delivery = deliveryOf(message.body);
    if (delivery) named.push({ message, ...delivery });
    else retry(message, 0);
  }
  const send = async (items: typeof named) =>
    Promise.all(
      // A delivery's id does not say its part: each of the organization's parts claims what it holds.
      [...(await byDataDb(env, items, (n) => n.organizationId, inEachPart))].map(([data, part]) =>
        deliverAll(
          env,
          db,
          data,
          part.map((n) => n.id),
          now,
        ),
      ),
    );
  try {
    await send(named);
    for (const { message } of named) ack(message);
  } catch (err) {
    logError("webhook delivery batch failed", { size: named.length, error: String(err) });
    await Promise.all(
      named.map(async (item) => {
        const { message, id } = item;
        try {
          await send([item]);
          ack(message);
        } catch (err) {
          logError("webhook delivery failed", { deliveryId: id, attempts: message.attempts, error: String(err) });
          retry(message, backoffSeconds(message.attempts, RETRY));
        }
      }),
    );
  }
}
