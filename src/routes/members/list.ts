import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, PaginationSwitch, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { orgAccess, requirePermission } from "../../services/access";
import { listMemberPage, memberFilters, memberRecords } from "../../services/members";
import { MemberSchema } from "../../services/records/members";
import { MemberFilterQuery, OrganizationParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/members/",
  tags: ["Members"],
  summary: "List the organization's members",
  description: "Needs `member.view`. Oldest first. `pagination=false` returns a plain array of every matching member.",
  request: {
    params: OrganizationParams,
    query: PageQuery.extend(PaginationSwitch.shape).extend(MemberFilterQuery.shape),
  },
  responses: {
    200: json(
      z.union([pageOf(MemberSchema, "MemberPage"), z.array(MemberSchema)]),
      "A page, or a plain array with `pagination=false`",
    ),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListMembers = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await orgAccess(c, c.req.valid("param").organizationPk);
    requirePermission(access, "member.view");
    const query = c.req.valid("query");
    const filters = memberFilters(query);
    const db = c.var.db;
    if (query.pagination === "false") return c.json(await memberRecords(db, access.organizationId, filters), 200);
    const p = pageParams(query);
    const page = await listMemberPage(db, access.organizationId, filters, p);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
