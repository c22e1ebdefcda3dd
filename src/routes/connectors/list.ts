import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { listConnectorPage } from "../../services/mcp/connectors";
import { ConnectorSchema } from "../../services/records/connectors";
import { CONNECTORS_TAG, ConnectorListQuery } from "./schema";

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
    const access = await authorize(c, "tool.view");
    const { isEnabled, ...page } = c.req.valid("query");
    const p = pageParams(page);
    const enabled = isEnabled ? isEnabled === "true" : undefined;
    const found = await listConnectorPage(c.var.db, access.organizationId, enabled, p);
    return c.json(pageResponse(c, p, found.count, found.items), 200);
  });
