import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getConnector } from "../../services/mcp/connectors";
import { credentialHolders } from "../../services/mcp/credentials";
import { authorizedMemberRecord } from "../../services/records/mcp";
import { AuthorizedMemberSchema } from "../mcp/schema";
import { CONNECTORS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/connectors/{id}/authorized-members/",
  tags: [CONNECTORS_TAG],
  summary: "Members holding a personal credential for a connector",
  description: "Needs `tool.view`. Oldest first; the credentials themselves are never returned.",
  request: { params: IdParams },
  responses: { 200: json(z.array(AuthorizedMemberSchema), "The members"), ...errorResponses(403, 404) },
});

export const registerListAuthorizedMembers = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "tool.view");
    const { connector } = await getConnector(c.var.db, access.organizationId, c.req.valid("param").id);
    const rows = await credentialHolders(c.var.db, access.organizationId, { connectorId: connector.id });
    return c.json(rows.map(authorizedMemberRecord), 200);
  });
