import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { createConnector } from "../../services/mcp/connector-write";
import { ConnectorSchema, ConnectorWrite } from "../../services/records/connectors";
import { CONNECTORS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/connectors/",
  tags: [CONNECTORS_TAG],
  summary: "Create a connector",
  description:
    "Needs `tool.manage`. An organization's instance of an MCP registry entry: `urlVariables` fill the " +
    "entry's URL placeholders (the result must " +
    "pass the outbound address guard); `displayName` and `description` default to the entry's; `authHeaders` " +
    "(write-only, encrypted; 503 " +
    "`not_configured` without ENCRYPTION_KEY) are sent unless the contact or member has a credential of their " +
    "own. Enabled connectors' tools " +
    "are offered to every agent reply of the organization.",
  request: jsonBody(ConnectorWrite),
  responses: { 201: json(ConnectorSchema, "The connector"), ...errorResponses(400, 403, 503) },
});

export const registerCreateConnector = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "tool.manage");
    const body = c.req.valid("json");
    return c.json(await createConnector(c.env, c.var.db, access.organizationId, c.var.principal.userId, body), 201);
  });
