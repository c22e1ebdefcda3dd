import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { organizations } from "./organizations";
import { belongsTo, evaluationScores, json, segmentSpan } from "./columns";

/**
 * Hourly rollups of conversation traffic (CONTRACT section 13), one row per assistant, hour (UTC,
 * epoch ms of its start), member and model. A message's counters are written in the batch that
 * stores it (statistics/message-figures.ts), a conversation's by a trigger on `conversations`
 * (migration 0009), so nothing is stored without its counts; failed replies are added by
 * `failedReplyWrites` in one batch with their record.
 * `memberId` is the member whose API key started the conversation ('' for visitors, widgets and
 * older rows); `modelId` is the language model of an assistant reply ('' for everything else). An AI gateway answer
 * counts under no assistant (`chatbotId` '') as a request of its model by the member whose key asked.
 * Day and month answers add up hour rows, in any timezone. The same counters make usage_hourly_tests.
 */
const hourlyCounters = () => ({
  organizationId: belongsTo("organization_id", () => organizations.id),
  chatbotId: text("chatbot_id").notNull(),
  hour: integer("hour").notNull(),
  memberId: text("member_id").notNull().default(""),
  modelId: text("model_id").notNull().default(""),
  conversations: integer("conversations").notNull().default(0),
  incomingMessages: integer("incoming_messages").notNull().default(0),
  outgoingMessages: integer("outgoing_messages").notNull().default(0),
  /** Assistant replies, and the sum of their reply times (ms), for the average. */
  replies: integer("replies").notNull().default(0),
  replyMs: integer("reply_ms").notNull().default(0),
  failedReplies: integer("failed_replies").notNull().default(0),
  likes: integer("likes").notNull().default(0),
  dislikes: integer("dislikes").notNull().default(0),
  toolCalls: integer("tool_calls").notNull().default(0),
  /** Model requests (one per reply) and their tokens as the provider reported them. */
  requests: integer("requests").notNull().default(0),
  inputTokens: integer("input_tokens").notNull().default(0),
  outputTokens: integer("output_tokens").notNull().default(0),
  /** Words of the assistant's replies (what the organization's monthly words count). */
  words: integer("words").notNull().default(0),
});

export const usageHourly = sqliteTable("usage_hourly", hourlyCounters(), (t) => [
  primaryKey({ columns: [t.chatbotId, t.hour, t.memberId, t.modelId] }),
  index("usage_hourly_org_idx").on(t.organizationId, t.hour),
]);

/**
 * The part of usage_hourly that test conversations (the console's try-it, `isTest`) made: the
 * assistant's statistics subtract it unless asked to include tests; usage (words, tokens, quotas)
 * counts everything (docs/decisions.md, "Test traffic apart").
 */
export const usageHourlyTests = sqliteTable("usage_hourly_tests", hourlyCounters(), (t) => [
  primaryKey({ columns: [t.chatbotId, t.hour, t.memberId, t.modelId] }),
]);

/** Which contacts wrote to an assistant in which hour: distinct contacts per bucket. */
export const usageHourlyContacts = sqliteTable(
  "usage_hourly_contacts",
  {
    organizationId: belongsTo("organization_id", () => organizations.id),
    chatbotId: text("chatbot_id").notNull(),
    hour: integer("hour").notNull(),
    contactId: text("contact_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.hour, t.contactId] })],
);

/**
 * The words each assistant's replies have used so far (the assistant's `totalWordsCount`): added to in the message's
 * batch (services/conversations.ts), which writes the organization's data plane only; `chatbots.total_words_count`
 * (configuration, in the control plane) is no longer written. No key to `chatbots`: the two planes part.
 */
export const chatbotWords = sqliteTable("chatbot_words", {
  chatbotId: text("chatbot_id").primaryKey(),
  organizationId: belongsTo("organization_id", () => organizations.id),
  words: integer("words").notNull().default(0),
});

export const EVALUATION_STATUSES = ["pending", "done", "failed"] as const;

/**
 * Chatbot records: one row per answered (or failed) question, keyed by the visitor's message id.
 * Written with the assistant reply that answers it (statistics/message-figures.ts) or with a failed reply's
 * error, scored later by the evaluation queue when the assistant has `enableEvaluation`.
 */
export const chatbotRecords = sqliteTable(
  "chatbot_records",
  {
    id: text("id").primaryKey(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    chatbotId: text("chatbot_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    contactId: text("contact_id"),
    replyMessageId: text("reply_message_id"),
    inputMessage: text("input_message").notNull().default(""),
    condenseMessage: text("condense_message"),
    outputMessage: text("output_message"),
    /** The passages the reply was given (citationNodes). */
    context: json<Record<string, unknown>[]>("context"),
    replyMs: integer("reply_ms"),
    error: text("error"),
    createdAt: integer("created_at").notNull(),
    answeredAt: integer("answered_at"),
    evaluationStatus: text("evaluation_status", { enum: EVALUATION_STATUSES }),
    ...evaluationScores(),
  },
  (t) => [
    index("chatbot_records_chatbot_idx").on(t.chatbotId, t.createdAt),
    // The housekeeping moves the oldest settled records first (statistics/record-segments.ts).
    index("chatbot_records_created_idx").on(t.createdAt),
  ],
);

/**
 * Settled chatbot records moved out of `chatbot_records` (services/statistics/record-segments.ts): one R2 object of
 * NDJSON per move and (organization, assistant, hour of `createdAt`), written before this row; the row is inserted
 * in the batch that deletes the moved rows, so a record is in D1 or in a segment listed here, never in neither.
 * Its span (`minCreatedAt`..`maxCreatedAt`) and count let lists skip and count segments without reading them.
 */
export const chatbotRecordSegments = sqliteTable(
  "chatbot_record_segments",
  {
    key: text("key").primaryKey(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    chatbotId: text("chatbot_id").notNull(),
    ...segmentSpan(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("chatbot_record_segments_hour_idx").on(t.chatbotId, t.hour)],
);

const dailyCounters = () => ({
  conversations: integer("conversations").notNull().default(0),
  incomingMessages: integer("incoming_messages").notNull().default(0),
  outgoingMessages: integer("outgoing_messages").notNull().default(0),
  replies: integer("replies").notNull().default(0),
  failedReplies: integer("failed_replies").notNull().default(0),
  words: integer("words").notNull().default(0),
  requests: integer("requests").notNull().default(0),
  inputTokens: integer("input_tokens").notNull().default(0),
  outputTokens: integer("output_tokens").notNull().default(0),
});

/**
 * Whole UTC days of usage_hourly per member ('' for traffic of no member) and per assistant, for
 * organization-wide answers over long ranges. Rolled up from the hour rows after the day has ended
 * (src/services/statistics/rollup.ts, by the housekeeping cron or the first request that needs
 * them), so they cost the message write path nothing; `usage_rollup` says how far they reach.
 */
export const usageDailyMembers = sqliteTable(
  "usage_daily_members",
  {
    organizationId: belongsTo("organization_id", () => organizations.id),
    day: integer("day").notNull(),
    memberId: text("member_id").notNull(),
    ...dailyCounters(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day, t.memberId] })],
);

export const usageDailyChatbots = sqliteTable(
  "usage_daily_chatbots",
  {
    organizationId: belongsTo("organization_id", () => organizations.id),
    day: integer("day").notNull(),
    chatbotId: text("chatbot_id").notNull(),
    ...dailyCounters(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day, t.chatbotId] })],
);

/** How far the daily rollups reach: days before `through` (epoch ms, a UTC midnight) are rolled up. */
export const usageRollup = sqliteTable("usage_rollup", {
  id: text("id").primaryKey(),
  through: integer("through").notNull(),
});
