import { createRoute } from "@hono/zod-openapi";
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { groups } from "../../db/schema";
import { orgAccess, requirePermission } from "../../services/access";
import { groupRecords } from "../../services/groups";
import { contains } from "../../lib/sql";
import { GroupListQuery, GroupSchema, OrganizationParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/groups/",
  tags: ["Roles and permissions"],
  summary: "List the organization's groups",
  description: "Requires `group.view`. Ordered by name (case-insensitive).",
  request: { params: OrganizationParams, query: GroupListQuery },
  responses: { 200: json(pageOf(GroupSchema, "GroupPage"), "Groups"), ...errorResponses(400, 403, 404) },
});

export const registerListGroups = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk } = c.req.valid("param");
    const access = await orgAccess(c, organizationPk);
    requirePermission(access, "group.view");
    const { query, ...page } = c.req.valid("query");
    const p = pageParams(page);
    const where = and(
      eq(groups.organizationId, access.organizationId),
      query ? contains(groups.name, query) : undefined,
    );
    const db = c.var.db;
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(groups).where(where),
      db
        .select()
        .from(groups)
        .where(where)
        .orderBy(asc(sql`${groups.name} collate nocase`), asc(groups.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    return c.json(pageResponse(c, p, n, await groupRecords(db, rows)), 200);
  });
