import { createRoute } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { connectors } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import { getConnector } from "../../services/mcp/connectors";
import { connectorColumns } from "../../services/mcp/connector-write";
import { connectorRecord } from "../../services/records/mcp";
import { CONNECTORS_TAG, ConnectorPatch, ConnectorSchema, ConnectorWrite } from "./schema";

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/connectors/{id}/",
    tags: [CONNECTORS_TAG],
    summary: method === "put" ? "Replace a connector" : "Update some fields of a connector",
    description:
      "Needs `tool.manage`. " +
      (method === "put" ? "`mcpRegistryId` is required; " : "") +
      "fields left out keep their value (`authHeaders` too; null removes them). Another registry entry starts from empty urlVariables. " +
      "Members' credentials stay.",
    request: { params: IdParams, ...jsonBody(method === "put" ? ConnectorWrite : ConnectorPatch) },
    responses: { 200: json(ConnectorSchema, "The updated connector"), ...errorResponses(400, 403, 404, 503) },
  });

export function registerUpdateConnector(r: Router) {
  for (const route of [routeFor("put"), routeFor("patch")]) {
    r.openapi(route, async (c) => {
      const access = await currentAccess(c);
      requirePermission(access, "tool.manage");
      const db = c.var.db;
      const { connector: current } = await getConnector(db, access.organizationId, c.req.valid("param").id);
      const { values, entry } = await connectorColumns(c.env, db, c.req.valid("json"), current);
      const [connector] = await db
        .update(connectors)
        .set({ ...values, updatedAt: Date.now() })
        .where(and(eq(connectors.id, current.id), eq(connectors.organizationId, access.organizationId)))
        .returning();
      return c.json(connectorRecord({ connector, entry }), 200);
    });
  }
}
