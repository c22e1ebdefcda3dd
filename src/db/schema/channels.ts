import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { organizations } from "./organizations";
import { inboxes } from "./inboxes";
import { conversations } from "./conversations";
import { contacts } from "./contacts";
import { belongsTo, createdAt, id, json, timestamps, updatedAt } from "./columns";

export const CHANNEL_STATUSES = ["not_connected", "connected", "failing"] as const;

/** Why the platform's check of the webhook URL was refused: Meta's `hub.verify_token` is not the channel's, Slack's
 * `url_verification` is not signed with its signing secret. */
export const WEBHOOK_REFUSALS = ["wrong_verify_token", "bad_signature"] as const;

/**
 * A messaging inbox's connection to its platform (CONTRACT section 17): the credentials (secret
 * ones sealed, lib/crypto.ts), the tokens the platform's requests carry, and how it went lately.
 */
export const inboxChannels = sqliteTable(
  "inbox_channels",
  {
    inboxId: text("inbox_id")
      .primaryKey()
      .references(() => inboxes.id, { onDelete: "cascade" }),
    organizationId: belongsTo("organization_id", () => organizations.id),
    channelType: text("channel_type").notNull(),
    /** The fields that are not secret (ids, addresses, names). */
    settings: json<Record<string, string>>("settings").notNull(),
    /** The secret fields as one sealed JSON object. */
    secretsSealed: text("secrets_sealed"),
    /** Meta's `hub.verify_token` for the subscription handshake. */
    verifyToken: text("verify_token").notNull(),
    /** Telegram's `secret_token`, set with the webhook and sent back on every update. */
    webhookSecret: text("webhook_secret").notNull(),
    status: text("status", { enum: CHANNEL_STATUSES }).notNull().default("not_connected"),
    /** The API's origin the settings were saved through: our URLs in what is sent (files) and the webhook's. */
    origin: text("origin").notNull(),
    lastError: text("last_error"),
    lastEventAt: integer("last_event_at"),
    /** When the platform last verified the webhook URL (Meta's GET subscription, Slack's url_verification). */
    webhookVerifiedAt: integer("webhook_verified_at"),
    /** The last such check refused since the last one passed: when, and why. */
    webhookRefusedAt: integer("webhook_refused_at"),
    webhookRefusal: text("webhook_refusal", { enum: WEBHOOK_REFUSALS }),
    ...timestamps(),
  },
  (t) => [index("inbox_channels_org_idx").on(t.organizationId)],
);

export const CHANNEL_EVENT_STATUSES = ["pending", "stored", "ignored"] as const;

/**
 * Every event a platform sent, kept before the platform is answered (nothing it sends is lost), by
 * the platform's own id (so a redelivery is the same row, never a second message). The intake
 * (services/channels/intake.ts) turns pending ones into messages and marks each stored.
 */
export const channelEvents = sqliteTable(
  "channel_events",
  {
    inboxId: belongsTo("inbox_id", () => inboxes.id),
    eventId: text("event_id").notNull(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    /** The event as the adapter read it (services/channels/types.ts InboundEvent). */
    payload: json<Record<string, unknown>>("payload").notNull(),
    /** Its chat, and when the platform says it happened: a chat's events are taken in in this order, whichever request
     * brought them first. */
    threadKey: text("thread_key"),
    at: integer("at"),
    status: text("status", { enum: CHANNEL_EVENT_STATUSES }).notNull().default("pending"),
    /** The event's message, named before it is posted: a pending event with one may have been stored by a run that
     * died (services/channels/intake.ts asks the conversation's object). */
    messageId: text("message_id"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    receivedAt: integer("received_at").notNull(),
    /** Its place among the events of the request that brought it: platforms that give whole seconds (WhatsApp,
     * Telegram, e-mail) give two messages of one second the same `at`, and the request's order is then theirs. */
    position: integer("position").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.inboxId, t.eventId] }),
    index("channel_events_pending_idx").on(t.status, t.receivedAt),
    index("channel_events_chat_idx").on(t.inboxId, t.threadKey, t.status),
  ],
);

/** A platform chat (a user's, or a group's) and the contact and conversation it is in now. */
export const channelThreads = sqliteTable(
  "channel_threads",
  {
    inboxId: belongsTo("inbox_id", () => inboxes.id),
    threadKey: text("thread_key").notNull(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    contactId: text("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    conversationId: text("conversation_id"),
    /** What a reply needs that the conversation does not hold (e-mail's subject and Message-IDs). */
    context: json<Record<string, unknown>>("context"),
    /** Which intake run is taking the chat's events in, until when: one run a chat (services/channels/intake.ts). */
    leaseUntil: integer("lease_until"),
    leaseHolder: text("lease_holder"),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.inboxId, t.threadKey] }),
    index("channel_threads_conversation_idx").on(t.conversationId),
  ],
);

export const CHANNEL_DELIVERY_STATUSES = ["pending", "sent", "failed"] as const;

/**
 * Each outgoing message of a messaging inbox on its way to the platform: written in the message's
 * own batch (the outbox), sent in order per conversation (services/channels/outbound.ts).
 */
export const channelDeliveries = sqliteTable(
  "channel_deliveries",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    inboxId: belongsTo("inbox_id", () => inboxes.id),
    conversationId: belongsTo("conversation_id", () => conversations.id),
    /** The message sent: in its conversation's object, not in D1 (no foreign key; docs/decisions.md, "Messages in the
     * conversation object"). */
    messageId: text("message_id").notNull(),
    status: text("status", { enum: CHANNEL_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    /** Who is sending the conversation's deliveries now, until when (one sender per conversation). */
    leaseUntil: integer("lease_until"),
    error: text("error"),
    platformMessageIds: json<string[]>("platform_message_ids"),
    createdAt: createdAt(),
    sentAt: integer("sent_at"),
    /**
     * The message shows this state (`metadata.channelDelivery`, written by the conversation's object): false from a
     * write of the state until the object copied it, so the housekeeping cron tells the object should the sender's
     * call have failed (services/channels/outbound.ts, showDelivery).
     */
    shown: integer("shown", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [
    index("channel_deliveries_conversation_idx").on(t.conversationId, t.status, t.id),
    index("channel_deliveries_pending_idx").on(t.status, t.nextAttemptAt),
    index("channel_deliveries_message_idx").on(t.messageId),
    index("channel_deliveries_unshown_idx").on(t.messageId).where(sql`${t.shown} = 0`),
    // An e-mail reply's Message-ID (its one platform id; only e-mail's have an "@"): how an answer naming only our
    // reply finds its conversation (channels/email-handler.ts, `ourThread`) without reading the inbox's half year.
    index("channel_deliveries_email_id_idx")
      .on(t.inboxId, sql`json_extract(platform_message_ids, '$[0]')`)
      .where(sql`platform_message_ids LIKE '%@%'`),
  ],
);
