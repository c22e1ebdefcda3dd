import { createRoute } from "@hono/zod-openapi";
import { and, count, desc, eq, ne, or } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { contains } from "../../lib/sql";
import { sqlDatabases } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import { visibleSqlDatabasesCondition } from "../../services/sql/access";
import { sqlDatabaseViews } from "../../services/sql/views";
import { sqlDatabaseListRecord } from "../../services/records/sql-databases";
import { SQL_DATABASES_TAG, SqlDatabaseListItem, SqlDatabaseListQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/sql-databases/",
  tags: [SQL_DATABASES_TAG],
  summary: "List the SQL databases you can see",
  description:
    "Needs `sql_database.view`. Newest first; owners see all of the organization's, other members those of their groups. Tables as `{id, tableName}` with `tablesCount`.",
  request: { query: SqlDatabaseListQuery },
  responses: {
    200: json(pageOf(SqlDatabaseListItem, "SqlDatabasePage"), "Page of SQL databases"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListSqlDatabases = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await currentAccess(c);
    requirePermission(access, "sql_database.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const where = and(
      visibleSqlDatabasesCondition(access),
      q.databaseType ? eq(sqlDatabases.databaseType, q.databaseType) : undefined,
      q.isActive ? eq(sqlDatabases.isActive, q.isActive === "true") : undefined,
      q.isExternal
        ? q.isExternal === "true"
          ? ne(sqlDatabases.databaseType, "managed")
          : eq(sqlDatabases.databaseType, "managed")
        : undefined,
      q.query ? or(contains(sqlDatabases.name, q.query), contains(sqlDatabases.description, q.query)) : undefined,
    );
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(sqlDatabases).where(where),
      db
        .select()
        .from(sqlDatabases)
        .where(where)
        .orderBy(desc(sqlDatabases.createdAt), desc(sqlDatabases.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    return c.json(pageResponse(c, p, n, (await sqlDatabaseViews(db, access, rows)).map(sqlDatabaseListRecord)), 200);
  });
