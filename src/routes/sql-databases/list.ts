import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { listSqlDatabases } from "../../services/sql/databases";
import { SQL_DATABASES_TAG, SqlDatabaseListItem, SqlDatabaseListQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/sql-databases/",
  tags: [SQL_DATABASES_TAG],
  summary: "List the SQL databases you can see",
  description:
    "Needs `sql_database.view`. Newest first; owners see all of the organization's, other members those of " +
    "their groups. Tables as `{id, tableName}` with `tablesCount`.",
  request: { query: SqlDatabaseListQuery },
  responses: {
    200: json(pageOf(SqlDatabaseListItem, "SqlDatabasePage"), "Page of SQL databases"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListSqlDatabases = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "sql_database.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const page = await listSqlDatabases(c.var.db, access, c.var.principal.userId, q, p);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
