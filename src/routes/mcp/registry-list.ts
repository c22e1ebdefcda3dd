import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { listRegistry } from "../../services/mcp/connectors";
import { registryEntryRecord, RegistryEntrySchema } from "../../services/records/mcp";
import { MCP_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/mcp/registry/",
  tags: [MCP_TAG],
  summary: "The MCP registry",
  description:
    "The catalogue of MCP servers shipped with the service (global, read-only), in display order. Any " +
    "authenticated user may read it.",
  responses: { 200: json(z.array(RegistryEntrySchema), "Every entry"), ...errorResponses() },
});

export const registerListRegistry = (r: Router) =>
  r.openapi(route, async (c) => c.json((await listRegistry(c.var.db)).map(registryEntryRecord), 200));
