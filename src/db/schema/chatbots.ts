import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./accounts";
import { organizations, groups } from "./organizations";
import { models } from "./models";
import { belongsTo, bool, createdAt, id, json, timestamps } from "./columns";
import { uuidv7 } from "../../lib/ids";

export const REPLY_MODES = ["normal", "template", "hybrid", "workflow", "agent"] as const;
export const OUTPUT_MODES = ["text", "json_schema"] as const;
export const AGENT_MODES = ["normal", "canvas"] as const;

/** Assistants. An empty organization means a personal assistant, visible to its creator only. */
export const chatbots = sqliteTable(
  "chatbots",
  {
    id: id(),
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    createdById: text("created_by_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    largeLanguageModelId: text("large_language_model_id")
      .notNull()
      .references(() => models.id),
    /** Answers a turn when the primary model fails before its first token (services/llm/fallback.ts). */
    fallbackLargeLanguageModelId: text("fallback_large_language_model_id").references(() => models.id),
    embeddingModelId: text("embedding_model_id").references(() => models.id),
    rerankerModelId: text("reranker_model_id").references(() => models.id),
    ragId: text("rag_id"),
    builtInWorkflowId: text("built_in_workflow_id"),
    instructions: text("instructions").notNull().default(""),
    replyMode: text("reply_mode", { enum: REPLY_MODES }).notNull().default("normal"),
    template: text("template"),
    unanswerableTemplate: text("unanswerable_template"),
    /** Unused since migration 0039: the count is `chatbot_words` (statistics.ts), in the organization's data plane. */
    totalWordsCount: integer("total_words_count").notNull().default(0),
    outputMode: text("output_mode", { enum: OUTPUT_MODES }).notNull().default("text"),
    rawOutputFormat: json<Record<string, unknown>>("raw_output_format"),
    /** Values written before migration 0051 only, until the housekeeping cron seals them (database-url.ts). */
    databaseUrl: text("database_url"),
    /** The connection string encrypted at rest, as a SQL database's; `databaseUrlMasked` is what the record shows. */
    databaseUrlSealed: text("database_url_sealed"),
    databaseUrlMasked: text("database_url_masked"),
    databaseType: text("database_type"),
    includeTables: json<Record<string, unknown>>("include_tables"),
    agentMode: text("agent_mode", { enum: AGENT_MODES }).notNull().default("normal"),
    numberOfRetrievedChunks: integer("number_of_retrieved_chunks").notNull().default(12),
    enableEvaluation: bool("enable_evaluation").notNull().default(false),
    enableInLineCitations: bool("enable_in_line_citations").notNull().default(false),
    /** Handing the conversation to a person (services/conversation/handoff.ts); null: the defaults. */
    handoff: json<{ enabled?: boolean; afterUnanswered?: number; message?: string | null }>("handoff"),
    ...timestamps(),
  },
  // The list reads each part of what a caller sees in creation order
  // (services/chatbots/visibility.ts listVisibleChatbots).
  (t) => [
    index("chatbots_org_created_idx").on(t.organizationId, t.createdAt, t.id),
    index("chatbots_personal_idx").on(t.createdById, t.createdAt, t.id).where(sql`${t.organizationId} is null`),
  ],
);

/** Group access to assistants (the `group-chatbots` sub-resource of groups). */
export const chatbotGroups = sqliteTable(
  "chatbot_groups",
  {
    id: text("id")
      .notNull()
      .unique()
      .$defaultFn(() => uuidv7()),
    chatbotId: belongsTo("chatbot_id", () => chatbots.id),
    groupId: belongsTo("group_id", () => groups.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.groupId] }), index("chatbot_groups_group_idx").on(t.groupId)],
);
