import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getConnector } from "../../services/mcp/connectors";
import { updateConnector } from "../../services/mcp/connector-write";
import { ConnectorSchema, ConnectorPatch, ConnectorWrite } from "../../services/records/connectors";
import { CONNECTORS_TAG } from "./schema";

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/connectors/{id}/",
    tags: [CONNECTORS_TAG],
    summary: method === "put" ? "Replace a connector" : "Update some fields of a connector",
    description:
      "Needs `tool.manage`. " +
      (method === "put" ? "`mcpRegistryId` is required; " : "") +
      "fields left out keep their value (`authHeaders` too; null removes them). Another registry entry starts " +
      "from empty urlVariables. " +
      "Members' credentials and the stored `authHeaders` stay while the server's origin stays (or only moves to " +
      "https); a connector pointed at another server drops its members' credentials, and its `authHeaders` " +
      "unless the body gives new ones. A change made while others change the connector's server or headers is " +
      "applied again to theirs (409 when it keeps finding them changed).",
    request: { params: IdParams, ...jsonBody(method === "put" ? ConnectorWrite : ConnectorPatch) },
    responses: { 200: json(ConnectorSchema, "The updated connector"), ...errorResponses(400, 403, 404, 409, 503) },
  });

export function registerUpdateConnector(r: Router) {
  for (const route of [routeFor("put"), routeFor("patch")]) {
    r.openapi(route, async (c) => {
      const access = await authorize(c, "tool.manage");
      const { connector } = await getConnector(c.var.db, access.organizationId, c.req.valid("param").id);
      return c.json(await updateConnector(c.env, c.var.db, connector, c.req.valid("json")), 200);
    });
  }
}
