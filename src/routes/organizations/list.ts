import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, PaginationSwitch, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { listOrganizations } from "../../services/organizations";
import { planSettings } from "../../services/plans";
import { OrganizationSchema } from "../../services/records/organizations";

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
    const userId = c.var.principal.userId;
    if (query.pagination === "false") return c.json(await listOrganizations(c.env, db, userId, plans), 200);
    const p = pageParams(query);
    const page = await listOrganizations(c.env, db, userId, plans, p);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
