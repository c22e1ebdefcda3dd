import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { organizations } from "./organizations";
import { inboxes } from "./inboxes";
import { chatbots } from "./chatbots";
import { contacts } from "./contacts";
import { users } from "./accounts";
import { groups } from "./organizations";
import { belongsTo, bool, createdAt, id, json, timestamps } from "./columns";

export const CONVERSATION_STATUSES = ["open", "queued", "resolved"] as const;
export const PROGRESS_STATUSES = ["ai_processing", "waiting_for_human", "human_serving", "resolved", "open"] as const;
/** Why a conversation's state changed (CONTRACT section 18): the live stream's and the lifecycle webhooks' `reason`. */
export const CHANGE_REASONS = [
  "visitor_request",
  "unanswered",
  "tool",
  "operator",
  "auto_assignment",
  "resolved",
] as const;

export const conversations = sqliteTable(
  "conversations",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    inboxId: belongsTo("inbox_id", () => inboxes.id),
    chatbotId: text("chatbot_id").references(() => chatbots.id, { onDelete: "set null" }),
    contactId: text("contact_id").references(() => contacts.id),
    title: text("title").notNull().default(""),
    type: text("type", { enum: ["individual", "group"] })
      .notNull()
      .default("individual"),
    status: text("status", { enum: CONVERSATION_STATUSES }).notNull().default("open"),
    progressStatus: text("progress_status", { enum: PROGRESS_STATUSES }).notNull().default("open"),
    autoReplyEnabled: bool("auto_reply_enabled").notNull().default(true),
    assigneeId: text("assignee_id").references(() => users.id, { onDelete: "set null" }),
    /** The team (a group) it is assigned to: its members see it in "Unassigned" until one takes it. */
    teamId: text("team_id").references(() => groups.id, { onDelete: "set null" }),
    /** Since when it waits for a person (queued by a handoff); null when no one is awaited. Sorts "Waiting". */
    waitingSince: integer("waiting_since"),
    /** The visitor's satisfaction rating (1-5) and comment, asked when it is resolved. */
    csatRating: integer("csat_rating"),
    csatComment: text("csat_comment"),
    csatAt: integer("csat_at"),
    lastMessage: text("last_message"),
    lastMessageAt: integer("last_message_at"),
    /** Messages not yet read by an agent (feeds the inbox's unreadConversationsCount). */
    unreadCount: integer("unread_count").notNull().default(0),
    /** The member whose API key started it (usage statistics per member); null for visitors and widgets. */
    createdById: text("created_by_id"),
    /** Started by the console's try-it (a completion with `test: true`): apart in the inbox and left out of statistics
     * by default. */
    isTest: bool("is_test").notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    index("conversations_org_idx").on(t.organizationId, t.createdAt),
    // The inbox's list: the organization's conversations newest first (uuid v7 ids), without a sort. Each filter whose
    // matches can be few among many has an index of its own ending in the id, so a page is read from where it starts
    // rather than found by walking the organization's history (docs/decisions.md, "The conversation list's indexes").
    index("conversations_org_id_idx").on(t.organizationId, t.id),
    index("conversations_inbox_idx").on(t.inboxId, t.id),
    index("conversations_status_idx").on(t.organizationId, t.status, t.id),
    index("conversations_chatbot_idx").on(t.organizationId, t.chatbotId, t.id),
    index("conversations_progress_idx").on(t.organizationId, t.progressStatus, t.id),
    index("conversations_team_idx").on(t.organizationId, t.teamId, t.id),
    index("conversations_test_idx").on(t.organizationId, t.isTest, t.id),
    // A visitor's conversations in the widget, newest first.
    index("conversations_contact_idx").on(t.contactId, t.createdAt),
    index("conversations_assignee_idx").on(t.organizationId, t.assigneeId, t.status),
    // The inboxes' unread counts: only the conversations holding unread messages, so the organization's are counted
    // beside a page of its inboxes rather than after it (services/inboxes.ts).
    index("conversations_unread_idx").on(t.organizationId, t.inboxId).where(sql`unread_count > 0`),
  ],
);

export const MESSAGE_TYPES = ["incoming", "outgoing"] as const;
export const SENDER_TYPES = ["chatbot", "user", "contact"] as const;

/** Messages, ordered per conversation by the sequence its Durable Object hands out. */
export const messages = sqliteTable(
  "messages",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    conversationId: belongsTo("conversation_id", () => conversations.id),
    sequence: integer("sequence").notNull(),
    type: text("type", { enum: MESSAGE_TYPES }).notNull(),
    senderType: text("sender_type", { enum: SENDER_TYPES }).notNull(),
    senderId: text("sender_id"),
    senderName: text("sender_name").notNull().default(""),
    senderAvatar: text("sender_avatar"),
    content: text("content").notNull().default(""),
    contentPayload: json<Record<string, unknown>>("content_payload"),
    attachments: json<Record<string, unknown>[]>("attachments"),
    citations: json<Record<string, unknown>[]>("citations"),
    citationNodes: json<Record<string, unknown>[]>("citation_nodes"),
    canvas: json<Record<string, unknown>>("canvas"),
    queryMetadata: json<Record<string, unknown>>("query_metadata"),
    metadata: json<Record<string, unknown>>("metadata"),
    skillIds: json<string[]>("skill_ids"),
    toolIds: json<string[]>("tool_ids"),
    feedback: text("feedback"),
    wordsCount: integer("words_count").notNull().default(0),
    /** Assistant replies that could not answer from their sources (a handoff may follow:
     * services/conversation/handoff.ts). */
    unanswered: bool("unanswered").notNull().default(false),
    /** An operator's private note: shown to the team only, never to the visitor, a channel or a message webhook. */
    private: bool("private").notNull().default(false),
    /** Assistant replies: the language model asked and the tokens it reported (usage statistics). */
    modelId: text("model_id"),
    inputTokens: integer("input_tokens"),
    outputTokens: integer("output_tokens"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("messages_conversation_seq_uq").on(t.conversationId, t.sequence),
    index("messages_org_idx").on(t.organizationId, t.createdAt),
  ],
);

/** Organization labels put on conversations (filters of the inbox and of statistics). */
export const labels = sqliteTable(
  "labels",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    name: text("name").notNull(),
    /** `#rrggbb`. */
    color: text("color").notNull(),
    description: text("description").notNull().default(""),
    ...timestamps(),
  },
  (t) => [uniqueIndex("labels_org_name_uq").on(t.organizationId, t.name)],
);

export const conversationLabels = sqliteTable(
  "conversation_labels",
  {
    conversationId: belongsTo("conversation_id", () => conversations.id),
    labelId: belongsTo("label_id", () => labels.id),
    organizationId: belongsTo("organization_id", () => organizations.id),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.labelId] }),
    index("conversation_labels_label_idx").on(t.labelId, t.conversationId),
  ],
);

/** Organization-level canned responses: an operator types `/shortCode` in the reply box. */
export const cannedResponses = sqliteTable(
  "canned_responses",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    shortCode: text("short_code").notNull(),
    content: text("content").notNull(),
    createdById: text("created_by_id"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("canned_responses_org_code_uq").on(t.organizationId, t.shortCode)],
);

export const HANDOFF_REASONS = ["visitor_request", "unanswered", "tool", "operator"] as const;

/**
 * One stretch of a conversation with people: from its handoff (or an operator's takeover) to its
 * resolution or hand-back. The human side's figures (time waiting, to first response, to
 * resolution; per agent, team and assistant) are read from these rows.
 */
export const conversationHandoffs = sqliteTable(
  "conversation_handoffs",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    conversationId: belongsTo("conversation_id", () => conversations.id),
    inboxId: text("inbox_id").notNull(),
    chatbotId: text("chatbot_id"),
    reason: text("reason", { enum: HANDOFF_REASONS }).notNull(),
    isTest: bool("is_test").notNull().default(false),
    queuedAt: integer("queued_at").notNull(),
    teamId: text("team_id"),
    assigneeId: text("assignee_id"),
    assignedAt: integer("assigned_at"),
    firstResponseAt: integer("first_response_at"),
    /** Resolved, or handed back to the assistant: the stretch is over. */
    endedAt: integer("ended_at"),
    resolved: bool("resolved").notNull().default(false),
  },
  (t) => [
    index("conversation_handoffs_org_idx").on(t.organizationId, t.queuedAt),
    index("conversation_handoffs_conversation_idx").on(t.conversationId, t.queuedAt),
  ],
);

/**
 * A conversation's lifecycle events (CONTRACT section 18) kept for the outgoing webhooks that opt in
 * (`conversationEvents`): each is delivered like a message event, by its own delivery rows.
 */
export const conversationEvents = sqliteTable(
  "conversation_events",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    conversationId: belongsTo("conversation_id", () => conversations.id),
    inboxId: text("inbox_id").notNull(),
    changes: json<Record<string, [unknown, unknown]>>("changes").notNull(),
    reason: text("reason", { enum: CHANGE_REASONS }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("conversation_events_conversation_idx").on(t.conversationId, t.createdAt)],
);

/**
 * Conversation search (services/conversation/search.ts): each distinct term of a conversation's
 * messages once (services/knowledge/retrieval/terms.ts `searchTerms`), with the time of the newest
 * message that had it, folded in from `conversation_terms_pending` many conversations at a time
 * (services/conversation/search-terms.ts) and removed 90 days after `lastAt`. The key leads with the
 * organization and the term, so a word is one range of the organization's own rows. WITHOUT ROWID in
 * the migration (0029), which drizzle cannot declare. The ids are kept as their 16 bytes, not 36
 * characters (a row is a third smaller; services/conversation/search-terms.ts converts), so they
 * reference nothing: the organization's delete removes its terms (services/organizations.ts), and a
 * conversation goes only with its organization.
 */
export const conversationTerms = sqliteTable(
  "conversation_terms",
  {
    organizationId: blob("organization_id", { mode: "buffer" }).notNull(),
    term: text("term").notNull(),
    conversationId: blob("conversation_id", { mode: "buffer" }).notNull(),
    lastAt: integer("last_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.term, t.conversationId] })],
);

/**
 * Where the housekeeping of `conversation_terms` stands (services/conversation/search-terms.ts): the
 * backfill of messages stored before migration 0029 (`backfill`: the last message rowid indexed and
 * the last to index) and the retention sweep (`retention`: the last key swept), as JSON.
 */
export const conversationTermsCursors = sqliteTable("conversation_terms_cursors", {
  id: text("id").primaryKey(),
  position: text("position", { mode: "json" }).notNull(),
});

/**
 * The terms of messages stored since the last fold, a row per message (its distinct terms as a JSON
 * array), written in the batch that stores the message: a row appended, where `conversation_terms`
 * would take a page write per term. The search reads these rows beside `conversation_terms`, and a
 * cron folds them into it, many conversations a transaction (services/conversation/search-terms.ts;
 * docs/decisions.md, "Conversation search by terms"). Transient, so the ids stay text and reference
 * nothing: the organization's delete removes its rows with its terms.
 */
export const conversationTermsPending = sqliteTable(
  "conversation_terms_pending",
  {
    id: integer("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    at: integer("at").notNull(),
    terms: text("terms").notNull(),
  },
  (t) => [index("conversation_terms_pending_org_idx").on(t.organizationId)],
);

/**
 * Conversations deleted (with their inbox, assistant or organization) whose objects still hold their messages:
 * written in the batch that deletes them, so none is missed, and emptied by the housekeeping cron as each object
 * forgets its storage (services/conversation/forget.ts). No foreign key: the conversation is gone.
 */
export const forgottenConversations = sqliteTable("forgotten_conversations", {
  conversationId: text("conversation_id").primaryKey(),
  forgottenAt: integer("forgotten_at").notNull(),
});

/**
 * Data-plane rows of a deleted control-plane row (an inbox, webhook, label, assistant, tool or group) still to be
 * deleted or unlinked: written by the control delete before it deletes in `DB`, worked off by the housekeeping cron
 * by pages, then dropped (services/purges.ts). Once the data plane is in its own database the foreign keys' cascades
 * cannot reach it. No foreign keys; `organization_id` is null for a global tool.
 */
export const purges = sqliteTable(
  "purges",
  {
    organizationId: text("organization_id"),
    kind: text("kind", { enum: ["inbox", "webhook", "label", "chatbot", "tool", "group"] }).notNull(),
    id: text("id").notNull(),
    since: integer("since").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.id] })],
);
