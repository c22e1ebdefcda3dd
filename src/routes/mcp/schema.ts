import { z } from "@hono/zod-openapi";
import { Timestamp, Timestamps } from "../../lib/openapi";
import { MemberUserSchema } from "../../services/records/group-members";

export const MCP_TAG = "MCP";
export const REGISTRY_EXAMPLE_ID = "00000000-0000-7000-8100-000000000002";
export const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const RemoteToolSchema = z
  .object({
    name: z
      .string()
      .openapi({ description: "The tool's name on the server (what mcpAllowedTools lists)", example: "search_issues" }),
    title: z.string().nullable().openapi({ description: "Human-readable title", example: "Search issues" }),
    description: z
      .string()
      .openapi({ description: "What the server says the tool does", example: "Searches issues by text." }),
    inputSchema: z.record(z.string(), z.unknown()).openapi({
      description: "JSON Schema of the arguments",
      example: { type: "object", properties: { query: { type: "string" } } },
    }),
    annotations: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "The server's hints (readOnlyHint, destructiveHint, ...)", example: null }),
  })
  .openapi("McpRemoteTool");

export const AvailableToolsSchema = z
  .object({
    server: z
      .object({
        name: z.string().openapi({ description: "The server's name for itself", example: "github-mcp-server" }),
        version: z.string().openapi({ description: "The server's version, as it gives it", example: "1.0.0" }),
      })
      .openapi({ description: "What the server calls itself" }),
    transport: z
      .enum(["streamable-http", "sse"])
      .openapi({ description: "The transport the server answered on", example: "streamable-http" }),
    credential: z.enum(["member", "rawMcpHeader", "tool", "none"]).openapi({
      description:
        "Which headers were sent: your stored credential for toolId, the rawMcpHeader given, the tool's " +
        "rawMcpHeader, or none",
      example: "member",
    }),
    tools: z
      .array(RemoteToolSchema)
      .openapi({ description: "The server's tools, narrowed by mcpAllowedTools and availableTools" }),
  })
  .openapi("McpAvailableTools");

const names = (description: string) =>
  z
    .union([z.string().max(20_000), z.array(z.string().max(200)).max(500)])
    .optional()
    .openapi({
      description: `${description}: a JSON array, a comma-separated list, or the key repeated`,
      example: '["search_issues"]',
    });

export const AvailableToolsQuery = z.object({
  mcpUrl: z.string().trim().min(1).max(2000).openapi({
    description: "The server's MCP endpoint (http or https), checked by the outbound address guard",
    example: "https://mcp.example.com/mcp",
  }),
  rawMcpHeader: z.string().max(20_000).optional().openapi({
    description: "Headers to send, as a JSON object of header names to strings",
    example: '{"Authorization": "Bearer abc"}',
  }),
  toolId: z.string().max(100).optional().openapi({
    description: "An mcp tool you can see: your stored credential for it is sent (if the URL is the tool's server)",
    example: EXAMPLE_ID,
  }),
  mcpAllowedTools: names("Only these remote tools"),
  availableTools: names("Only these remote tools (as well)"),
});

export const CredentialWrite = z
  .object({
    headers: z.record(z.string(), z.string().max(8000)).openapi({
      description: "Headers sent to the server in place of the default ones; write-only, stored encrypted",
      example: { Authorization: "Bearer my-token" },
    }),
  })
  .openapi("McpCredentialWrite");

export const CredentialStatusSchema = z
  .object({
    hasCredential: z.boolean().openapi({ description: "Whether you hold a credential for it", example: true }),
    createdAt: Timestamp.nullable(),
    updatedAt: Timestamp.nullable(),
  })
  .openapi("McpCredentialStatus");

export const AuthorizedMemberSchema = z
  .object({
    memberId: z
      .string()
      .openapi({ description: "The member's id (for DELETE .../authorized-members/{memberId}/)", example: EXAMPLE_ID }),
    user: MemberUserSchema,
    ...Timestamps,
  })
  .openapi("McpAuthorizedMember");
