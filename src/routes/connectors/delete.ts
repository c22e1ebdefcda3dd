import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { deleteConnector } from "../../services/mcp/connector-write";
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
    const access = await authorize(c, "tool.manage");
    const { connector } = await getConnector(c.var.db, access.organizationId, c.req.valid("param").id);
    await deleteConnector(c.var.db, connector);
    return c.body(null, 204);
  });
