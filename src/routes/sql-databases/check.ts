import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { checkSqlDatabase } from "../../services/sql/write";
import { sqlDatabaseView } from "../../services/sql/views";
import { sqlDatabaseRecord } from "../../services/records/sql-databases";
import { SQL_DATABASES_TAG, SqlDatabaseSchema } from "./schema";

const route = createRoute({
  method: "post",
  path: "/sql-databases/{id}/check-connection/",
  tags: [SQL_DATABASES_TAG],
  summary: "Connect now and rediscover the tables",
  description:
    "Needs `sql_database.manage`. Connects to an external database while you wait and returns the record with " +
    "its new `status`, `errorMessage` and tables " +
    "(a failed connection is a `failed` status, not an error). mysql, oracle and mssql: 400, not supported in " +
    "this deployment. Managed databases are always connected.",
  request: { params: IdParams },
  responses: { 200: json(SqlDatabaseSchema, "The SQL database after the check"), ...errorResponses(400, 403, 404) },
});

export const registerCheckSqlDatabase = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "sql_database.manage");
    const row = await checkSqlDatabase(c.env, c.var.db, access, c.req.valid("param").id);
    return c.json(sqlDatabaseRecord(await sqlDatabaseView(c.var.db, access, c.var.principal.userId, row)), 200);
  });
