import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { orgAccess, requirePermission } from "../../services/access";
import { listGroups } from "../../services/groups";
import { GroupSchema } from "../../services/records/groups";
import { GroupListQuery, OrganizationParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/groups/",
  tags: ["Roles and permissions"],
  summary: "List the organization's groups",
  description: "Needs `group.view`. Ordered by name (case-insensitive).",
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
    const found = await listGroups(c.var.db, access.organizationId, query, p);
    return c.json(pageResponse(c, p, found.count, found.items), 200);
  });
