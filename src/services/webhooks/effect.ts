import type { MessageEffect, StoredBatch } from "../conversation/effects";
import { messageEventWrites } from "./conversation-events";
import { createdDeliveries, deliveryOutbox, enqueueDeliveries } from "./emit";

/** Hands the deliveries that the effect's statements created in the batch to the webhook queue. */
function queueCreatedDeliveries({ env, waitUntil, messages, organizationId }: StoredBatch): void {
  const ids = messages.flatMap((m) => (m.result ? createdDeliveries(m.result) : []));
  // Should the queue refuse, the housekeeping cron queues the pending outbox rows again.
  if (ids.length) waitUntil(enqueueDeliveries(env, ids, organizationId).catch((err) => console.error(String(err))));
}

/**
 * Outgoing webhooks of a stored message: the deliveries it causes are written in the message's own
 * batch (the outbox: a message is never stored without them), then handed to the webhook queue.
 */
export const webhookEffect: MessageEffect = {
  name: "webhooks",
  inBatch: deliveryOutbox,
  stored: queueCreatedDeliveries,
};

/**
 * Outgoing webhooks of what a stored message does to its conversation: an assistant's handoff reply
 * queues it, and that change is a lifecycle event, written with its deliveries in the reply's batch
 * (conversation-events.ts), then handed to the webhook queue.
 */
export const conversationEventWebhookEffect: MessageEffect = {
  name: "conversation event webhooks",
  inBatch: messageEventWrites,
  stored: queueCreatedDeliveries,
};
