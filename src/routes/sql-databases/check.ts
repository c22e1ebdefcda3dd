import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { ApiError } from "../../lib/errors";
import { authorize } from "../../services/access";
import { getSqlDatabase } from "../../services/sql/access";
import { notSupportedMessage, refreshSqlDatabase, UNSUPPORTED_TYPES } from "../../services/sql/write";
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
    const db = c.var.db;
    const access = await authorize(c, "sql_database.manage");
    let row = await getSqlDatabase(db, access, c.req.valid("param").id);
    if (UNSUPPORTED_TYPES.includes(row.databaseType))
      throw new ApiError(400, "not_supported", notSupportedMessage(row.databaseType));
    if (row.databaseType !== "managed") {
      await refreshSqlDatabase(c.env, db, row.id);
      row = await getSqlDatabase(db, access, row.id);
    }
    return c.json(sqlDatabaseRecord(await sqlDatabaseView(db, access, c.var.principal.userId, row)), 200);
  });
