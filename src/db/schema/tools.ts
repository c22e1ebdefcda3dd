import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./accounts";
import { groups, organizations } from "./organizations";
import { chatbots } from "./chatbots";
import { belongsTo, id, json, segmentSpan, timestamps, linkTable } from "./columns";

export const TOOL_TYPES = ["api", "function", "mcp", "desktop", "flex", "quick_reply"] as const;
export const HTTP_METHODS = ["get", "post", "put", "delete", "patch"] as const;
export const TOOL_EXECUTION_STATUSES = ["success", "failure", "pending", "timeout"] as const;
export type ToolType = (typeof TOOL_TYPES)[number];

/**
 * Tools an assistant in agent mode may call (CONTRACT section 11). A null organization is a global
 * tool, offered to every organization and changed by platform staff only.
 */
export const tools = sqliteTable(
  "tools",
  {
    id: id(),
    organizationId: text("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    /** The function name the model calls; null only for MCP tools. Unique per organization. */
    name: text("name"),
    displayName: text("display_name").notNull(),
    description: text("description").notNull().default(""),
    prompt: text("prompt").notNull().default(""),
    toolType: text("tool_type", { enum: TOOL_TYPES }).notNull(),
    apiUrl: text("api_url"),
    httpMethod: text("http_method", { enum: HTTP_METHODS }),
    rawHeaders: json<Record<string, unknown>>("raw_headers"),
    rawParametersSchema: json<Record<string, unknown>>("raw_parameters_schema"),
    mcpAllowedTools: json<unknown>("mcp_allowed_tools"),
    functionCode: text("function_code"),
    mcpUrl: text("mcp_url"),
    rawMcpHeader: json<Record<string, unknown>>("raw_mcp_header"),
    flexTemplateJson: json<Record<string, unknown>>("flex_template_json"),
    flexSchema: json<Record<string, unknown>>("flex_schema"),
    quickReplyConfig: json<Record<string, unknown>>("quick_reply_config"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("tools_org_name_uq").on(t.organizationId, t.name),
    index("tools_org_idx").on(t.organizationId, t.createdAt),
  ],
);

/** Group access to tools (CONTRACT section 4). */
export const toolGroups = linkTable("tool_groups", "tool_groups_group_idx", {
  toolId: belongsTo("tool_id", () => tools.id),
  groupId: belongsTo("group_id", () => groups.id),
});

/** The tools an assistant may call (`tools: [{id}]` on the chatbot). */
export const chatbotTools = linkTable("chatbot_tools", "chatbot_tools_tool_idx", {
  chatbotId: belongsTo("chatbot_id", () => chatbots.id),
  toolId: belongsTo("tool_id", () => tools.id),
});

/**
 * One row per tool call of an agent reply. Names are copied so a record still reads after its
 * assistant or tool is deleted; the message id is the reply's, stored when the reply completes
 * (no foreign key: the record is written before the message exists).
 */
export const toolExecutionRecords = sqliteTable(
  "tool_execution_records",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    chatbotId: text("chatbot_id").references(() => chatbots.id, { onDelete: "set null" }),
    chatbotName: text("chatbot_name").notNull().default(""),
    toolId: text("tool_id").references(() => tools.id, { onDelete: "set null" }),
    toolName: text("tool_name").notNull(),
    toolDisplayName: text("tool_display_name").notNull().default(""),
    toolType: text("tool_type").notNull(),
    conversationId: text("conversation_id"),
    messageId: text("message_id"),
    /** The visitor's message that led to the call (searched by `query`). */
    messageText: text("message_text").notNull().default(""),
    /** The model's id for the call, so a desktop client's result finds its place in the loop. */
    callId: text("call_id"),
    status: text("status", { enum: TOOL_EXECUTION_STATUSES }).notNull().default("pending"),
    input: json<Record<string, unknown>>("input").notNull(),
    output: json<unknown>("output"),
    error: text("error"),
    durationMs: integer("duration_ms"),
    ...timestamps(),
  },
  (t) => [
    index("tool_execution_records_org_idx").on(t.organizationId, t.createdAt),
    index("tool_execution_records_tool_idx").on(t.toolId, t.createdAt),
    index("tool_execution_records_chatbot_idx").on(t.chatbotId),
    // The housekeeping moves the oldest finished records first (tools/record-segments.ts).
    index("tool_execution_records_created_idx").on(t.createdAt),
  ],
);

/**
 * Finished tool execution records moved out of `tool_execution_records` (services/tools/record-segments.ts): one R2
 * object of NDJSON per move and (organization, assistant, tool, hour of `createdAt`), written before this row; the
 * row is inserted in the batch that deletes the moved rows, so a record is in D1 or in a segment listed here, never
 * in neither. The assistant and the tool are nulled as the records' own are when they are deleted, so lists filter,
 * scope and choose what a member sees on these rows as on the records; the records' are read from here. Its span
 * (`minCreatedAt`..`maxCreatedAt`) and count let lists skip and count segments without reading them; its id range
 * finds a record's segment.
 */
export const toolRecordSegments = sqliteTable(
  "tool_record_segments",
  {
    key: text("key").primaryKey(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    chatbotId: text("chatbot_id").references(() => chatbots.id, { onDelete: "set null" }),
    toolId: text("tool_id").references(() => tools.id, { onDelete: "set null" }),
    ...segmentSpan(),
    minId: text("min_id").notNull(),
    maxId: text("max_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("tool_record_segments_org_idx").on(t.organizationId, t.maxCreatedAt),
    index("tool_record_segments_id_idx").on(t.organizationId, t.minId),
    index("tool_record_segments_chatbot_idx").on(t.chatbotId),
    index("tool_record_segments_tool_idx").on(t.toolId, t.maxCreatedAt),
  ],
);
