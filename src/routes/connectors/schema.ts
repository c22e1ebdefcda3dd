import { z } from "@hono/zod-openapi";
import { MCP_AUTH_KINDS } from "../../db/schema";
import { Timestamp } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { EXAMPLE_ID, REGISTRY_EXAMPLE_ID } from "../mcp/schema";

export const CONNECTORS_TAG = "Connectors";

export const ConnectorSchema = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    mcpRegistryId: z
      .string()
      .openapi({ description: "The registry entry it is an instance of", example: REGISTRY_EXAMPLE_ID }),
    mcpRegistry: z
      .object({
        id: z.string().openapi({ example: REGISTRY_EXAMPLE_ID }),
        slug: z.string().openapi({ example: "github" }),
        name: z.string().openapi({ example: "GitHub" }),
        icon: z.string().nullable().openapi({ example: null }),
        authKind: z.enum(MCP_AUTH_KINDS).openapi({ example: "headers" }),
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
    organization: z.string().openapi({ example: EXAMPLE_ID }),
    createdBy: z.string().nullable().openapi({ description: "The user who created it", example: EXAMPLE_ID }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Connector");

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
export const ConnectorListQuery = PageQuery.extend({
  isEnabled: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "Only enabled (true) or disabled (false) connectors", example: "true" }),
});

export const MemberParams = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, description: "The connector's id", example: EXAMPLE_ID }),
  memberId: z
    .string()
    .openapi({ param: { name: "memberId", in: "path" }, description: "The member's id", example: EXAMPLE_ID }),
});
