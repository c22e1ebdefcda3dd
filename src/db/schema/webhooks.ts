import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { organizations } from "./organizations";
import { inboxes } from "./inboxes";
import { chatbots } from "./chatbots";
import { conversationEvents } from "./conversations";
import { belongsTo, bool, createdAt, id, json, timestamps } from "./columns";

export const WEBHOOK_DIRECTIONS = ["outgoing", "incoming", "receive"] as const;
export const WEBHOOK_METHODS = ["POST", "PUT", "PATCH"] as const;
/** `legacy` is the older payload format (deprecated by the spec, kept for existing receivers). */
export const WEBHOOK_PRESETS = ["service_standard", "genesys_cloud", "custom", "legacy"] as const;

/** Outbound webhooks of an inbox (spec "Webhook configuration"). */
export const webhooks = sqliteTable(
  "webhooks",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    inboxId: belongsTo("inbox_id", () => inboxes.id),
    name: text("name").notNull(),
    direction: text("direction", { enum: WEBHOOK_DIRECTIONS }).notNull(),
    isEnabled: bool("is_enabled").notNull().default(true),
    url: text("url").notNull(),
    method: text("method", { enum: WEBHOOK_METHODS }).notNull().default("POST"),
    /** Custom headers in clear, as written before they were sealed; null once sealed (services/webhooks/headers.ts). */
    headers: json<Record<string, string>>("headers"),
    /** The custom headers, one JSON object AES-GCM sealed (lib/crypto.ts): the values are write-only credentials. */
    headersSealed: text("headers_sealed"),
    /** Their names with each value masked, as the record shows them (the values sealed are not opened to list). */
    headersMasked: json<Record<string, string>>("headers_masked"),
    templatePreset: text("template_preset", { enum: WEBHOOK_PRESETS }).notNull().default("service_standard"),
    customTemplate: text("custom_template"),
    /** AES-GCM sealed (lib/crypto.ts): sent as X-Webhook-Secret and used to sign; never returned. */
    secretTokenSealed: text("secret_token_sealed"),
    /** CONTRACT section 8: failed deliveries are retried on the schedule of services/webhooks/retries.ts (off: spec
     * rule 3). */
    retryFailedDeliveries: bool("retry_failed_deliveries").notNull().default(false),
    /** Also send the conversation's lifecycle events (CONTRACT section 18); off: message payloads only. */
    conversationEvents: bool("conversation_events").notNull().default(false),
    /** Time of the first failed delivery since the last success; null while deliveries succeed. */
    failingSince: integer("failing_since"),
    /** Set when the service disabled the webhook itself (every delivery failed for 3 days); cleared on re-enabling. */
    disabledAt: integer("disabled_at"),
    disabledReason: text("disabled_reason"),
    ...timestamps(),
  },
  (t) => [index("webhooks_inbox_idx").on(t.inboxId, t.direction)],
);

export const DELIVERY_STATUSES = ["pending", "sending", "success", "failure"] as const;

/**
 * One attempt to push one message (the event) to one webhook: the first is written with the message
 * (outbox), later ones by a retry or a redelivery; each is claimed by the queue consumer, then
 * completed with what the receiver answered, and never overwritten by a later attempt. Unique per
 * (message, webhook, attempt).
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    webhookId: belongsTo("webhook_id", () => webhooks.id),
    inboxId: text("inbox_id").notNull(),
    chatbotId: text("chatbot_id").references(() => chatbots.id, { onDelete: "set null" }),
    /** The message pushed, in its conversation's object (no foreign key: D1 does not keep messages); null for a
     * lifecycle event (conversationEventId). */
    messageId: text("message_id"),
    conversationEventId: text("conversation_event_id").references(() => conversationEvents.id, { onDelete: "cascade" }),
    /** The conversation of the message or lifecycle event: a message's payload is read from its conversation's object
     * (event-data.ts). Null only for a record moved to a segment before the column existed. */
    conversationId: text("conversation_id"),
    event: text("event", { enum: ["incoming", "outgoing", "conversation.updated"] }).notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    /** 1 for the first push of the event to this webhook, then 2, 3, ... */
    attempt: integer("attempt").notNull().default(1),
    /** While `pending`: not sent before this time (a scheduled retry). */
    scheduledAt: integer("scheduled_at").notNull().default(0),
    /** While `sending`: until when the claiming consumer owns it; also which claim it is (each sets a later one), so
     * a consumer completes the attempt only while it is the one it took (services/webhooks/completion.ts). */
    leaseUntil: integer("lease_until"),
    /** Times this attempt was sent: 1 once done; 2 only when a consumer died mid-send and its lease lapsed. */
    attempts: integer("attempts").notNull().default(0),
    url: text("url"),
    requestBody: text("request_body"),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    durationMs: integer("duration_ms"),
    error: text("error"),
    createdAt: createdAt(),
    deliveredAt: integer("delivered_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_attempt_uq").on(t.messageId, t.webhookId, t.attempt),
    uniqueIndex("webhook_deliveries_event_attempt_uq").on(t.conversationEventId, t.webhookId, t.attempt),
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt),
    index("webhook_deliveries_chatbot_idx").on(t.chatbotId, t.createdAt),
    index("webhook_deliveries_pending_idx").on(t.status, t.scheduledAt),
  ],
);

/** One count of a segment: how many of its records went to `webhookId`, of `chatbotId`'s messages, in `status`. */
export type SegmentCount = [
  webhookId: string,
  chatbotId: string | null,
  status: (typeof DELIVERY_STATUSES)[number],
  n: number,
];

/**
 * Ended delivery records moved out of `webhook_deliveries` (services/webhooks/segments.ts): one R2 object of NDJSON
 * per move and (organization, hour of `createdAt`), written before this row; the row is inserted in the batch
 * that deletes the moved rows, so a record is in D1 or in a segment listed here, never in both and never in
 * neither. Its counts let lists page without reading the segments they skip; its id range finds a record's segment.
 */
export const webhookDeliverySegments = sqliteTable(
  "webhook_delivery_segments",
  {
    key: text("key").primaryKey(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    /** Start of the hour (epoch ms) of every record's `createdAt`. */
    hour: integer("hour").notNull(),
    records: integer("records").notNull(),
    counts: json<SegmentCount[]>("counts").notNull(),
    minId: text("min_id").notNull(),
    maxId: text("max_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_delivery_segments_hour_idx").on(t.organizationId, t.hour),
    index("webhook_delivery_segments_id_idx").on(t.organizationId, t.minId),
  ],
);
