import { createRoute } from "@hono/zod-openapi";
import { and, count, desc, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { connectors, mcpRegistry } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import { connectorRecord } from "../../services/records/mcp";
import { CONNECTORS_TAG, ConnectorListQuery, ConnectorSchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/connectors/",
  tags: [CONNECTORS_TAG],
  summary: "List the organization's connectors",
  description: "Needs `tool.view`. Newest first; `isEnabled` filters.",
  request: { query: ConnectorListQuery },
  responses: {
    200: json(pageOf(ConnectorSchema, "ConnectorPage"), "Page of connectors"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListConnectors = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await currentAccess(c);
    requirePermission(access, "tool.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const where = and(
      eq(connectors.organizationId, access.organizationId),
      q.isEnabled ? eq(connectors.isEnabled, q.isEnabled === "true") : undefined,
    );
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(connectors).where(where),
      db
        .select({ connector: connectors, entry: mcpRegistry })
        .from(connectors)
        .innerJoin(mcpRegistry, eq(mcpRegistry.id, connectors.mcpRegistryId))
        .where(where)
        .orderBy(desc(connectors.createdAt), desc(connectors.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    return c.json(pageResponse(c, p, n, rows.map(connectorRecord)), 200);
  });
