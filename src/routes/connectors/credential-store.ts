import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { ms } from "../../lib/time";
import { currentAccess, requirePermission } from "../../services/access";
import { checkHeaders, getConnector } from "../../services/mcp/connectors";
import { storeMemberCredential } from "../../services/mcp/credentials";
import { CredentialStatusSchema, CredentialWrite } from "../mcp/schema";
import { CONNECTORS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/connectors/{id}/credentials/",
  tags: [CONNECTORS_TAG],
  summary: "Store your own credential for a connector",
  description:
    "Needs `tool.view`. Replaces any credential you held for it. Write-only, encrypted at rest (503 " +
    "`not_configured` without ENCRYPTION_KEY). " +
    "Conversations you start send these headers instead of the connector's `authHeaders` (a contact's own " +
    "credential still comes first). " +
    "You then appear in `authorized-members`.",
  request: { params: IdParams, ...jsonBody(CredentialWrite) },
  responses: { 201: json(CredentialStatusSchema, "Stored"), ...errorResponses(400, 403, 404, 503) },
});

export const registerStoreConnectorCredential = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "tool.view");
    const { connector } = await getConnector(c.var.db, access.organizationId, c.req.valid("param").id);
    const { headers } = c.req.valid("json");
    checkHeaders("headers", headers);
    const row = await storeMemberCredential(
      c.var.db,
      c.env,
      access.organizationId,
      access.memberId,
      { connectorId: connector.id },
      headers,
    );
    return c.json({ hasCredential: true, createdAt: ms(row.createdAt), updatedAt: ms(row.updatedAt) }, 201);
  });
