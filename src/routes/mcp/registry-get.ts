import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { getRegistryEntry } from "../../services/mcp/connectors";
import { registryEntryRecord, RegistryEntrySchema } from "../../services/records/mcp";
import { MCP_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/mcp/registry/{id}/",
  tags: [MCP_TAG],
  summary: "An entry of the MCP registry",
  description: "Any authenticated user may read it.",
  request: { params: IdParams },
  responses: { 200: json(RegistryEntrySchema, "The entry"), ...errorResponses(404) },
});

export const registerGetRegistryEntry = (r: Router) =>
  r.openapi(route, async (c) => {
    const row = await getRegistryEntry(c.var.db, c.req.valid("param").id);
    if (!row) throw notFound("No such registry entry.");
    return c.json(registryEntryRecord(row), 200);
  });
