import { sql, type SQL } from "drizzle-orm";
import { prepared, ph } from "../../db/prepared";
import { webhookDeliveries } from "../../db/schema";
import type { Bindings, Db } from "../../env";
import { sendAll } from "../../lib/queues";
import type { ConversationRow, MessageRow } from "../conversations";
import type { OutboxConfig } from "../conversation/outbox-config";
import { queueDelaySeconds } from "./retries";

export interface DeliveryMessage {
  deliveryId: string;
  /** Whose data plane holds the attempt; absent in a message sent before messages named it. */
  organizationId?: string;
}

/** The attempt a queue message names (with its organization, when the message says it), or null for none. */
export const deliveryOf = (body: unknown): { id: string; organizationId: string | null } | null => {
  const { deliveryId: id, organizationId } = (body as Partial<DeliveryMessage> | null) ?? {};
  if (typeof id !== "string" || !id) return null;
  return { id, organizationId: typeof organizationId === "string" && organizationId ? organizationId : null };
};

/** A uuid v7 made in SQL: the message's time in ms, then random bits (version 7, variant 10). */
export const uuidv7At = (ms: SQL | number) => sql`lower(
  substr(printf('%012x', ${ms}), 1, 8) || '-' || substr(printf('%012x', ${ms}), 9, 4)
  || '-7' || substr(hex(randomblob(2)), 2) || '-' ||
  substr('89ab', 1 + (random() & 3), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;

const insertOutbox = prepared<{
  organizationId: string;
  chatbotId: string | null;
  messageId: string;
  conversationId: string;
  event: string;
  createdAt: number;
  /** The webhooks, each `[id, inboxId, url]`, as JSON. */
  webhooks: string;
}>((db) => {
  const value = (v: unknown, column: string) => sql`${v}`.as(column);
  // Every column of the table, in its order (drizzle checks both).
  return db
    .insert(webhookDeliveries)
    .select((qb) =>
      qb
        .select({
          id: uuidv7At(ph("createdAt")).as("id"),
          organizationId: ph("organizationId").as("organization_id"),
          webhookId: sql`value ->> 0`.as("webhook_id"),
          inboxId: sql`value ->> 1`.as("inbox_id"),
          chatbotId: ph("chatbotId").as("chatbot_id"),
          messageId: ph("messageId").as("message_id"),
          conversationEventId: value(null, "conversation_event_id"),
          conversationId: ph("conversationId").as("conversation_id"),
          event: ph("event").as("event"),
          status: value("pending", "status"),
          attempt: value(1, "attempt"),
          scheduledAt: ph("createdAt").as("scheduled_at"),
          leaseUntil: value(null, "lease_until"),
          attempts: value(0, "attempts"),
          url: sql`value ->> 2`.as("url"),
          requestBody: value(null, "request_body"),
          responseStatus: value(null, "response_status"),
          responseBody: value(null, "response_body"),
          durationMs: value(null, "duration_ms"),
          error: value(null, "error"),
          createdAt: ph("createdAt").as("created_at"),
          deliveredAt: value(null, "delivered_at"),
        })
        .from(sql`json_each(${ph("webhooks")})`),
    )
    .returning({ id: webhookDeliveries.id });
});

/**
 * Outbox: one pending delivery record per (message, enabled webhook of its inbox listening to its
 * direction), as one INSERT that goes in the batch storing the message, after it. So a stored message always has its
 * deliveries (delivery rule 1), and it costs no round trip of its own. The webhooks are the inbox's as the turn read
 * them before the batch (`config`, conversation/outbox-config.ts: the batch names the data plane alone); none, no
 * statement. Its result rows are the new ids (RETURNING, see `createdDeliveries`): the queue is told afterwards, and
 * the housekeeping cron re-enqueues any the queue never heard of.
 */
export function deliveryOutbox(
  db: Db,
  conversation: ConversationRow,
  message: MessageRow,
  config: OutboxConfig,
): D1PreparedStatement | null {
  const hooks = config.webhooks.filter((w) => w.inboxId === conversation.inboxId && w.direction === message.type);
  if (!hooks.length) return null;
  return insertOutbox(db, {
    organizationId: conversation.organizationId,
    chatbotId: conversation.chatbotId,
    messageId: message.id,
    conversationId: message.conversationId,
    event: message.type,
    createdAt: message.createdAt,
    webhooks: JSON.stringify(hooks.map((w) => [w.id, w.inboxId, w.url])),
  });
}

/** The ids of the deliveries a `deliveryOutbox` statement created, from its result in the batch. */
export const createdDeliveries = (result: D1Result) => (result.results as { id: string }[]).map((d) => d.id);

/** Hands deliveries to the webhook queue (the consumer sends them); `organizationId` says whose they are. */
export async function enqueueDeliveries(env: Bindings, deliveryIds: string[], organizationId?: string): Promise<void> {
  await scheduleDeliveries(
    env,
    deliveryIds.map((id) => ({ id, organizationId, scheduledAt: 0 })),
    0,
  );
}

/**
 * Hands attempts to the queue, each delayed until it is due (at most the queue's 12 hours: the
 * consumer delays one woken early again). D1 stays the truth: the housekeeping cron queues again any
 * attempt still pending a minute after it was due, so a lost message only delays it.
 */
export async function scheduleDeliveries(
  env: Bindings,
  attempts: { id: string; organizationId?: string; scheduledAt: number }[],
  now: number,
): Promise<void> {
  await sendAll(
    env.WEBHOOK_QUEUE,
    attempts.map(({ id, organizationId, scheduledAt }) => ({
      body: (organizationId ? { deliveryId: id, organizationId } : { deliveryId: id }) satisfies DeliveryMessage,
      contentType: "json" as const,
      delaySeconds: queueDelaySeconds(scheduledAt, now),
    })),
  );
}
