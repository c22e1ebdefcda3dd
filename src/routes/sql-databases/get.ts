import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getSqlDatabase } from "../../services/sql/access";
import { sqlDatabaseView } from "../../services/sql/views";
import { sqlDatabaseRecord } from "../../services/records/sql-databases";
import { SQL_DATABASES_TAG, SqlDatabaseSchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/sql-databases/{id}/",
  tags: [SQL_DATABASES_TAG],
  summary: "Get a SQL database",
  description: "Needs `sql_database.view` and a database you can see: with its tables and their columns.",
  request: { params: IdParams },
  responses: { 200: json(SqlDatabaseSchema, "The SQL database"), ...errorResponses(403, 404) },
});

export const registerGetSqlDatabase = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "sql_database.view");
    const row = await getSqlDatabase(c.var.db, access, c.req.valid("param").id);
    return c.json(sqlDatabaseRecord(await sqlDatabaseView(c.var.db, access, c.var.principal.userId, row)), 200);
  });
