import type { MessageEffect } from "../conversation/effects";
import { createdDeliveries, deliveryOutbox, enqueueDeliveries } from "./emit";

/**
 * Outgoing webhooks of a stored message: the deliveries it causes are written in the message's own
 * batch (the outbox: a message is never stored without them), then handed to the webhook queue.
 */
export const webhookEffect: MessageEffect = {
  name: "webhooks",
  inBatch: deliveryOutbox,
  stored({ env, waitUntil, messages }) {
    const ids = messages.flatMap((m) => (m.result ? createdDeliveries(m.result) : []));
    // Should the queue refuse, the housekeeping cron queues the pending outbox rows again.
    if (ids.length) waitUntil(enqueueDeliveries(env, ids).catch((err) => console.error(String(err))));
  },
};
