import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { currentAccess, requirePermission } from "../../services/access";
import { getConnector } from "../../services/mcp/connectors";
import { revokeMemberCredential } from "../../services/mcp/credentials";
import { CONNECTORS_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/connectors/{id}/credentials/",
  tags: [CONNECTORS_TAG],
  summary: "Delete your own credential for a connector",
  description: "Needs `tool.view`. Takes effect on the next call. 204 also when you held none.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteConnectorCredential = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "tool.view");
    const { connector } = await getConnector(c.var.db, access.organizationId, c.req.valid("param").id);
    await revokeMemberCredential(c.var.db, access.organizationId, access.memberId, { connectorId: connector.id });
    return c.body(null, 204);
  });
