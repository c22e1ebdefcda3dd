import { and, eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { uuidv7 } from "../../lib/ids";
import { chunk } from "../../lib/sql";
import type { ConversationRow, MessageRow } from "../conversations";

export interface DeliveryMessage {
  deliveryId: string;
}

/** Enabled webhooks of an inbox listening to one direction (`incoming` or `outgoing`). */
export const listeningWebhooks = (db: Db, inboxId: string, direction: "incoming" | "outgoing") =>
  db.select({ id: webhooks.id, url: webhooks.url }).from(webhooks).where(and(eq(webhooks.inboxId, inboxId), eq(webhooks.direction, direction), eq(webhooks.isEnabled, true)));

/**
 * Outbox: one pending delivery record per (message, listening webhook), for the batch that stores
 * the message, so a stored message always has its deliveries (delivery rule 1). The queue is told
 * afterwards; the housekeeping cron re-enqueues any the queue never heard of.
 */
export async function deliveryInserts(db: Db, conversation: ConversationRow, message: MessageRow) {
  const listening = await listeningWebhooks(db, conversation.inboxId, message.type);
  const rows = listening.map((w) => ({
    id: uuidv7(),
    organizationId: conversation.organizationId,
    webhookId: w.id,
    inboxId: conversation.inboxId,
    chatbotId: conversation.chatbotId,
    messageId: message.id,
    event: message.type,
    url: w.url,
    createdAt: message.createdAt,
  }));
  // 10 columns a row: D1's 100 bound parameters allow 9 rows a statement.
  return { ids: rows.map((r) => r.id), statements: chunk(rows, 9).map((part) => db.insert(webhookDeliveries).values(part)) };
}

/** Hands deliveries to the webhook queue (the consumer sends them). */
export async function enqueueDeliveries(env: Bindings, deliveryIds: string[]): Promise<void> {
  for (let i = 0; i < deliveryIds.length; i += 100) {
    await env.WEBHOOK_QUEUE.sendBatch(deliveryIds.slice(i, i + 100).map((deliveryId) => ({ body: { deliveryId } satisfies DeliveryMessage, contentType: "json" as const })));
  }
}
