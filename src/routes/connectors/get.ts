import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getConnector } from "../../services/mcp/connectors";
import { ConnectorSchema, connectorRecord } from "../../services/records/connectors";
import { CONNECTORS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/connectors/{id}/",
  tags: [CONNECTORS_TAG],
  summary: "Get a connector",
  description: "Needs `tool.view`. Its headers are never returned (`hasAuthHeaders` says whether some are stored).",
  request: { params: IdParams },
  responses: { 200: json(ConnectorSchema, "The connector"), ...errorResponses(403, 404) },
});

export const registerGetConnector = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "tool.view");
    return c.json(connectorRecord(await getConnector(c.var.db, access.organizationId, c.req.valid("param").id)), 200);
  });
