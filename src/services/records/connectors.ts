import { z } from "@hono/zod-openapi";
import { MCP_AUTH_KINDS } from "../../db/schema";
import { Timestamps } from "../../lib/openapi";
import { timestampsOf } from "../../lib/time";
import type { ConnectorRow, RegistryRow } from "../mcp/connectors";

/** The ids of the examples (the connector's and its registry entry's, as in the MCP schemas). */
const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
const REGISTRY_EXAMPLE_ID = "00000000-0000-7000-8100-000000000002";

export const ConnectorSchema = z
  .object({
    id: z.string().openapi({ description: "The connector's id", example: EXAMPLE_ID }),
    mcpRegistryId: z
      .string()
      .openapi({ description: "The registry entry it is an instance of", example: REGISTRY_EXAMPLE_ID }),
    mcpRegistry: z
      .object({
        id: z.string().openapi({ description: "The entry's fixed id", example: REGISTRY_EXAMPLE_ID }),
        slug: z.string().openapi({ description: "The entry's short unique name", example: "github" }),
        name: z.string().openapi({ description: "The entry's name", example: "GitHub" }),
        icon: z.string().nullable().openapi({ description: "The entry's icon; null: none", example: null }),
        authKind: z.enum(MCP_AUTH_KINDS).openapi({
          description:
            "How the server is signed in to: none; headers (an API key or token in a header); oauth (a token " +
            "obtained by OAuth, sent as a header)",
          example: "headers",
        }),
      })
      .openapi({ description: "The registry entry, in short" }),
    displayName: z.string().openapi({ description: "Name shown to users (default: the entry's)", example: "GitHub" }),
    description: z.string().openapi({ description: "Default: the entry's", example: "Repositories and issues" }),
    urlVariables: z
      .record(z.string(), z.string())
      .openapi({ description: "Values of the entry's URL placeholders", example: {} }),
    serverUrl: z.string().openapi({
      description: "The server URL called (the entry's template, filled)",
      example: "https://api.githubcopilot.com/mcp/",
    }),
    hasAuthHeaders: z
      .boolean()
      .openapi({ description: "Whether service-account headers are stored (they are never returned)", example: true }),
    isEnabled: z
      .boolean()
      .openapi({ description: "Enabled connectors' tools are offered to agent replies", example: true }),
    organization: z.string().openapi({ description: "Owning organization", example: EXAMPLE_ID }),
    createdBy: z.string().nullable().openapi({ description: "The user who created it", example: EXAMPLE_ID }),
    ...Timestamps,
  })
  .openapi("Connector");

/** A connector: never its headers, only whether they are set. */
export type ConnectorRecord = z.infer<typeof ConnectorSchema>;

export const connectorRecord = ({
  connector: c,
  entry,
}: {
  connector: ConnectorRow;
  entry: RegistryRow;
}): ConnectorRecord => ({
  id: c.id,
  mcpRegistryId: c.mcpRegistryId,
  mcpRegistry: { id: entry.id, slug: entry.slug, name: entry.name, icon: entry.icon, authKind: entry.authKind },
  displayName: c.displayName,
  description: c.description,
  urlVariables: c.urlVariables ?? {},
  serverUrl: c.serverUrl,
  hasAuthHeaders: !!c.authHeadersSealed,
  isEnabled: c.isEnabled,
  organization: c.organizationId,
  createdBy: c.createdById,
  ...timestampsOf(c),
});

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").
const fields = {
  mcpRegistryId: z.uuid().openapi({ description: "An entry of GET /mcp/registry/", example: REGISTRY_EXAMPLE_ID }),
  displayName: z
    .string()
    .trim()
    .max(200)
    .nullable()
    .optional()
    .openapi({ description: "Default: the entry's name", example: "GitHub" }),
  description: z
    .string()
    .max(10_000)
    .nullable()
    .optional()
    .openapi({ description: "Default: the entry's description", example: "Our repositories" }),
  urlVariables: z.record(z.string().max(100), z.string().max(2000)).nullable().optional().openapi({
    description: 'Values of the entry\'s URL placeholders (`{"serverUrl": "https://..."}` for a custom server)',
    example: {},
  }),
  authHeaders: z
    .record(z.string(), z.unknown())
    .nullable()
    .optional()
    .openapi({
      description:
        "Service-account headers; write-only, stored encrypted (503 without ENCRYPTION_KEY); null removes them",
      example: { Authorization: "Bearer ghp_..." },
    }),
  isEnabled: z.boolean().optional().openapi({ description: "Default true", example: true }),
};

export const ConnectorWrite = z.object(fields).openapi("ConnectorWrite");
export const ConnectorPatch = ConnectorWrite.partial().openapi("ConnectorPatch");
