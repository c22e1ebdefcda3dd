import { createRoute } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { connectors } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import { getConnector } from "../../services/mcp/connectors";
import { CONNECTORS_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/connectors/{id}/",
  tags: [CONNECTORS_TAG],
  summary: "Delete a connector",
  description: "Needs `tool.manage`. Its members' credentials go with it; replies stop offering its tools at once.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteConnector = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "tool.manage");
    const { connector } = await getConnector(c.var.db, access.organizationId, c.req.valid("param").id);
    await c.var.db
      .delete(connectors)
      .where(and(eq(connectors.id, connector.id), eq(connectors.organizationId, access.organizationId)));
    return c.body(null, 204);
  });
