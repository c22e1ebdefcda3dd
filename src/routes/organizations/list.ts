import { createRoute, z } from "@hono/zod-openapi";
import { asc, count, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, PaginationSwitch, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { members, organizations } from "../../db/schema";
import { organizationRecord } from "../../services/organizations";
import { planSettings } from "../../services/plans";
import { OrganizationSchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/",
  tags: ["Organizations"],
  summary: "Organizations the caller is a member of",
  description: "Oldest first. `pagination=false` returns a plain array of every such organization.",
  request: { query: PageQuery.extend(PaginationSwitch.shape) },
  responses: {
    200: json(
      z.union([pageOf(OrganizationSchema, "OrganizationPage"), z.array(OrganizationSchema)]),
      "A page, or a plain array with `pagination=false`",
    ),
    ...errorResponses(400, 404),
  },
});

export const registerListOrganizations = (r: Router) =>
  r.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const db = c.var.db;
    const plans = planSettings(c.env);
    const mine = eq(members.userId, c.var.principal.userId);
    const rows = db
      .select({ organization: organizations })
      .from(organizations)
      .innerJoin(members, eq(members.organizationId, organizations.id))
      .where(mine)
      .orderBy(asc(organizations.createdAt), asc(organizations.id));
    const records = (list: { organization: typeof organizations.$inferSelect }[]) =>
      Promise.all(list.map((row) => organizationRecord(db, row.organization, plans)));
    if (query.pagination === "false") return c.json(await records(await rows), 200);
    const p = pageParams(query);
    const [[{ n }], page] = await Promise.all([
      db.select({ n: count() }).from(members).where(mine),
      rows.limit(p.limit).offset(p.offset),
    ]);
    return c.json(pageResponse(c, p, n, await records(page)), 200);
  });
