// The two planes of the schema (docs/scale.md §5 step 4, "The worklist" 1): what an organization's conversations,
// visitors, requests and deliveries write (the data plane, headed for the organization's shard) and what its
// administrators write or what says where it lives (the control plane, which stays in `DB`). Services reach the data
// plane through `dataDb` (services/shards) and the control plane through `DB`; a statement never names both.

/**
 * Tables written per conversation, message, visitor, request or delivery, or in a message's batch; parents before
 * children, the order a move copies them in (services/shards/data-plane-move.ts).
 */
export const DATA_TABLES = [
  "contacts",
  "contacts_fts",
  "contact_inboxes",
  "tags",
  "contact_tags",
  "conversations",
  "conversation_labels",
  "conversation_handoffs",
  "conversation_events",
  "messages",
  "conversation_terms",
  "conversation_terms_pending",
  "conversation_terms_cursors",
  "forgotten_conversations",
  "attachments",
  "uploads",
  "channel_events",
  "channel_threads",
  "channel_deliveries",
  "webhook_deliveries",
  "webhook_delivery_segments",
  "chatbot_records",
  "chatbot_record_segments",
  "chatbot_words",
  "tool_execution_records",
  "tool_record_segments",
  "usage_hourly",
  "usage_hourly_tests",
  "usage_hourly_contacts",
  "usage_daily_members",
  "usage_daily_chatbots",
  "usage_rollup",
  "organization_usage",
  "idempotency_keys",
  "purges",
  "mover_batches",
] as const;

/** Tables an administrator writes (configuration), the shard directory, and what is per user or platform-wide. */
export const CONTROL_TABLES = [
  "organizations",
  "organization_shards",
  "organization_parts",
  "members",
  "groups",
  "group_permissions",
  "group_members",
  "chatbots",
  "chatbot_groups",
  "chatbot_knowledge_bases",
  "chatbot_skills",
  "chatbot_tools",
  "inboxes",
  "web_chats",
  "inbox_channels",
  "webhooks",
  "labels",
  "canned_responses",
  "knowledge_bases",
  "knowledge_base_groups",
  "knowledge_base_labels",
  "knowledge_base_files",
  "knowledge_base_file_labels",
  "faqs",
  "faqs_fts",
  "faq_labels",
  "text_nodes",
  "text_nodes_fts",
  "skills",
  "skill_resources",
  "skill_tools",
  "skill_groups",
  "sql_databases",
  "sql_database_tables",
  "sql_database_chatbots",
  "sql_database_groups",
  "tools",
  "tool_groups",
  "connectors",
  "mcp_credentials",
  "batch_qas",
  "batch_qa_items",
  "users",
  "api_keys",
  "console_sessions",
  "models",
  "mcp_registry",
  "data_plane_changes",
  "plane_checks",
] as const;

export type Plane = "data" | "control";

const PLANE_OF = new Map<string, Plane>([
  ...DATA_TABLES.map((t) => [t, "data"] as const),
  ...CONTROL_TABLES.map((t) => [t, "control"] as const),
]);

/** Every table a statement reads or writes: the names after FROM, JOIN, INTO and UPDATE (quoted or not). */
const NAMED = /\b(?:from|join|into|update)\s+["`]?(\w+)/gi;

/** The tables of the other plane that `sql` names (empty: it stays on `plane`). */
export function otherPlaneTables(sql: string, plane: Plane): string[] {
  const found = new Set<string>();
  for (const [, name] of sql.matchAll(NAMED)) {
    const of = PLANE_OF.get(name.toLowerCase());
    if (of && of !== plane) found.add(name.toLowerCase());
  }
  return [...found];
}

/**
 * `d1` refusing any statement that names a table of the other plane: what the tests bind (`PLANE_GUARD`) so a
 * statement sent to the wrong database fails in the suite, as it will once the planes are two databases. Only the
 * test configuration turns it on; deployments use the binding as it is. `report` logs the statement and where it was
 * prepared instead of refusing it: the list of what is left to move.
 */
export function guardPlane(d1: D1Database, plane: Plane, report = false): D1Database {
  const check = (query: string) => {
    const other = otherPlaneTables(query, plane);
    if (!other.length) return;
    const said = `A statement on the ${plane} plane names ${other.join(", ")} of the other: ${query.slice(0, 300)}`;
    if (!report) throw new Error(said);
    const where = (new Error().stack ?? "")
      .split("\n")
      .filter((line) => /\/(src|durable-objects)\//.test(line) && !/\/src\/db\//.test(line))
      .slice(0, 4)
      .map((line) => line.trim().replace(/^at /, ""));
    console.warn(`[plane] ${said.slice(0, 200)} @ ${where.join(" < ")}`);
  };
  return {
    prepare(query: string) {
      check(query);
      return d1.prepare(query);
    },
    batch: <T>(statements: D1PreparedStatement[]) => d1.batch<T>(statements),
    exec(query: string) {
      check(query);
      return d1.exec(query);
    },
    dump: () => d1.dump(),
    withSession: (constraint?: string) => d1.withSession(constraint as never),
  } as D1Database;
}
