import { z } from "@hono/zod-openapi";
import { MCP_AUTH_KINDS } from "../../db/schema";
import { timestampsOf } from "../../lib/time";
import type { RegistryRow } from "../mcp/connectors";

const REGISTRY_EXAMPLE_ID = "00000000-0000-7000-8100-000000000002";

const UrlVariableSchema = z
  .object({
    name: z.string().openapi({ description: "The placeholder's name in serverUrlTemplate", example: "shop" }),
    description: z.string().openapi({ description: "What to fill in", example: "The store's myshopify subdomain" }),
  })
  .openapi("McpUrlVariable");

export const RegistryEntrySchema = z
  .object({
    id: z.string().openapi({ description: "Fixed id of the entry", example: REGISTRY_EXAMPLE_ID }),
    slug: z.string().openapi({ description: "Stable short name", example: "github" }),
    name: z.string().openapi({ description: "Name shown to users", example: "GitHub" }),
    description: z.string().openapi({
      description: "What the server offers",
      example: "Repositories, issues, pull requests and code search.",
    }),
    icon: z
      .string()
      .nullable()
      .openapi({ description: "Icon URL", example: "https://github.githubassets.com/favicons/favicon.svg" }),
    serverUrlTemplate: z.string().openapi({
      description: "The server URL; `{name}` placeholders are filled from a connector's urlVariables",
      example: "https://api.githubcopilot.com/mcp/",
    }),
    urlVariables: z
      .array(UrlVariableSchema)
      .openapi({ description: "The placeholders of serverUrlTemplate", example: [] }),
    authKind: z.enum(MCP_AUTH_KINDS).openapi({
      description:
        "none; headers (an API key or token in a header); oauth (a token obtained by OAuth, stored as a header)",
      example: "headers",
    }),
    authHint: z
      .string()
      .openapi({ description: "How the credential is sent", example: "Authorization: Bearer <personal access token>" }),
    documentationUrl: z
      .string()
      .nullable()
      .openapi({ description: "The server's documentation", example: "https://github.com/github/github-mcp-server" }),
  })
  .openapi("McpRegistryEntry");

/** An entry of the MCP registry (the catalogue shipped with the service). */
export type RegistryEntryRecord = z.infer<typeof RegistryEntrySchema>;

export const registryEntryRecord = (r: RegistryRow): RegistryEntryRecord => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  description: r.description,
  icon: r.icon,
  serverUrlTemplate: r.serverUrlTemplate,
  urlVariables: r.urlVariables,
  authKind: r.authKind,
  authHint: r.authHint,
  documentationUrl: r.documentationUrl,
});

/** A member holding a personal credential for a connector or MCP tool (never the credential). */
export interface AuthorizedMemberRecord {
  memberId: string;
  user: { id: string; name: string; email: string };
  createdAt: string;
  updatedAt: string;
}

export const authorizedMemberRecord = (r: {
  memberId: string;
  userId: string;
  name: string;
  email: string;
  createdAt: number;
  updatedAt: number;
}): AuthorizedMemberRecord => ({
  memberId: r.memberId,
  user: { id: r.userId, name: r.name, email: r.email },
  ...timestampsOf(r),
});
