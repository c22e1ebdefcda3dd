import { z } from "@hono/zod-openapi";
import { booleanQuery } from "../../lib/boolean-query";
import { PageQuery } from "../../lib/pagination";
import { EXAMPLE_ID, REGISTRY_EXAMPLE_ID } from "../mcp/schema";

export const CONNECTORS_TAG = "Connectors";

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
  isEnabled: booleanQuery({ description: "Only enabled (true) or disabled (false) connectors", example: "true" }),
});

export const MemberParams = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, description: "The connector's id", example: EXAMPLE_ID }),
  memberId: z
    .string()
    .openapi({ param: { name: "memberId", in: "path" }, description: "The member's id", example: EXAMPLE_ID }),
});
