import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getSqlDatabase } from "../../services/sql/access";
import { updateSqlDatabase } from "../../services/sql/databases";
import { SqlDatabasePatch, SqlDatabaseWrite } from "../../services/records/sql-databases";
import { SQL_DATABASES_TAG, SqlDatabaseSchema } from "./schema";

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/sql-databases/{id}/",
    tags: [SQL_DATABASES_TAG],
    summary: method === "put" ? "Replace a SQL database's settings" : "Update some settings of a SQL database",
    description:
      "Needs `sql_database.manage` and a database you can see. " +
      (method === "put" ? "`name` and `databaseType` are required; " : "") +
      "fields left out keep their value (a `databaseUrl` left out, or sent back masked, keeps the stored " +
      "one). `databaseType` cannot change. `chatbots`, when given, replaces the assistants you can see (links to " +
      "others stay; adding or removing one needs `chatbot.manage`). " +
      "A new connection string or `includeTables` checks the connection again in the background.",
    request: { params: IdParams, ...jsonBody(method === "put" ? SqlDatabaseWrite : SqlDatabasePatch) },
    responses: { 200: json(SqlDatabaseSchema, "The updated SQL database"), ...errorResponses(400, 403, 404, 409, 503) },
  });

export function registerUpdateSqlDatabase(r: Router) {
  for (const route of [routeFor("put"), routeFor("patch")]) {
    r.openapi(route, async (c) => {
      const access = await authorize(c, "sql_database.manage");
      const current = await getSqlDatabase(c.var.db, access, c.req.valid("param").id);
      const writer = {
        access,
        userId: c.var.principal.userId,
        waitUntil: (p: Promise<unknown>) => c.executionCtx.waitUntil(p),
      };
      return c.json(await updateSqlDatabase(c.env, c.var.db, writer, current, c.req.valid("json")), 200);
    });
  }
}
