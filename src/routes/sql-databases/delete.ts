import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getSqlDatabase } from "../../services/sql/access";
import { deleteSqlDatabase } from "../../services/sql/write";
import { SQL_DATABASES_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/sql-databases/{id}/",
  tags: [SQL_DATABASES_TAG],
  summary: "Delete a SQL database",
  description:
    "Needs `sql_database.manage` and a database you can see. A managed database's tables and rows are deleted " +
    "with it; an external database is only forgotten.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteSqlDatabase = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "sql_database.manage");
    const row = await getSqlDatabase(c.var.db, access, c.req.valid("param").id);
    await deleteSqlDatabase(c.env, c.var.db, row);
    return c.body(null, 204);
  });
