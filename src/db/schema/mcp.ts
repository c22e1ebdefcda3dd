import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./accounts";
import { members, organizations } from "./organizations";
import { tools } from "./tools";
import { belongsTo, bool, id, json, timestamps } from "./columns";

export const MCP_AUTH_KINDS = ["none", "headers", "oauth"] as const;

/** A variable of a registry entry's server URL template (`{workspace}`), filled by each connector. */
export interface UrlVariable {
  name: string;
  description: string;
}

/**
 * The MCP registry (CONTRACT section 12): a catalogue shipped with the service, seeded by migration
 * with fixed ids, global and read-only through the API.
 */
export const mcpRegistry = sqliteTable("mcp_registry", {
  id: text("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  icon: text("icon"),
  /** The server URL; `{name}` placeholders are filled from the connector's urlVariables. */
  serverUrlTemplate: text("server_url_template").notNull(),
  urlVariables: json<UrlVariable[]>("url_variables").notNull(),
  /** none: no credential; headers: an API key or token in a header; oauth: a token obtained by OAuth, stored as a
   * header. */
  authKind: text("auth_kind", { enum: MCP_AUTH_KINDS }).notNull(),
  /** How the credential is sent, e.g. `Authorization: Bearer <token>`. */
  authHint: text("auth_hint").notNull().default(""),
  documentationUrl: text("documentation_url"),
  sortOrder: integer("sort_order").notNull().default(0),
  ...timestamps(),
});

/** An organization's enabled instance of a registry entry; its service-account headers are sealed. */
export const connectors = sqliteTable(
  "connectors",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    mcpRegistryId: text("mcp_registry_id")
      .notNull()
      .references(() => mcpRegistry.id),
    displayName: text("display_name").notNull(),
    description: text("description").notNull().default(""),
    urlVariables: json<Record<string, string>>("url_variables"),
    /** The template with its variables filled, as called. */
    serverUrl: text("server_url").notNull(),
    /** AES-GCM sealed JSON object of headers (lib/crypto.ts); write-only. */
    authHeadersSealed: text("auth_headers_sealed"),
    isEnabled: bool("is_enabled").notNull().default(true),
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [index("connectors_org_idx").on(t.organizationId, t.createdAt)],
);

/**
 * A member's personal credential for an MCP tool or a connector (exactly one of the two), sent in
 * place of the tool's `rawMcpHeader` or the connector's `authHeaders`. Sealed, write-only.
 */
export const mcpCredentials = sqliteTable(
  "mcp_credentials",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    memberId: belongsTo("member_id", () => members.id),
    toolId: text("tool_id").references(() => tools.id, { onDelete: "cascade" }),
    connectorId: text("connector_id").references(() => connectors.id, { onDelete: "cascade" }),
    headersSealed: text("headers_sealed").notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("mcp_credentials_member_tool_uq").on(t.memberId, t.toolId),
    uniqueIndex("mcp_credentials_member_connector_uq").on(t.memberId, t.connectorId),
    index("mcp_credentials_connector_idx").on(t.connectorId),
    index("mcp_credentials_tool_idx").on(t.toolId),
  ],
);
