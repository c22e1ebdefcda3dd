import { createRoute } from "@hono/zod-openapi";
import { asc } from "drizzle-orm";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../../lib/pagination";
import { groupMembers } from "../../../db/schema";
import { orgAccess, requirePermission } from "../../../services/access";
import {
  countGroupMembers,
  findGroup,
  groupMemberFilter,
  groupMemberRecord,
  selectGroupMembers,
} from "../../../services/groups";
import { GroupMemberListQuery, GroupMemberSchema, GroupPkParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/groups/{groupPk}/group-members/",
  tags: ["Roles and permissions"],
  summary: "List a group's members",
  description: "Requires `group.view`. Oldest membership first.",
  request: { params: GroupPkParams, query: GroupMemberListQuery },
  responses: {
    200: json(pageOf(GroupMemberSchema, "GroupMemberPage"), "Group members"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListGroupMembers = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, groupPk } = c.req.valid("param");
    const access = await orgAccess(c, organizationPk);
    requirePermission(access, "group.view");
    const db = c.var.db;
    const group = await findGroup(db, access.organizationId, groupPk);
    const { query, ...page } = c.req.valid("query");
    const p = pageParams(page);
    const where = groupMemberFilter(group.id, query);
    const [[{ n }], rows] = await Promise.all([
      countGroupMembers(db).where(where),
      selectGroupMembers(db)
        .where(where)
        .orderBy(asc(groupMembers.createdAt), asc(groupMembers.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    return c.json(pageResponse(c, p, n, rows.map(groupMemberRecord)), 200);
  });
