import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../../lib/pagination";
import { listGroupMembers } from "../../../services/groups";
import { GroupMemberSchema } from "../../../services/records/group-members";
import { groupWith } from "../access";
import { GroupMemberListQuery, GroupPkParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/groups/{groupPk}/group-members/",
  tags: ["Roles and permissions"],
  summary: "List a group's members",
  description: "Needs `group.view`. Oldest membership first.",
  request: { params: GroupPkParams, query: GroupMemberListQuery },
  responses: {
    200: json(pageOf(GroupMemberSchema, "GroupMemberPage"), "Group members"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListGroupMembers = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, groupPk } = c.req.valid("param");
    const { group } = await groupWith(c, organizationPk, groupPk, "group.view");
    const db = c.var.db;
    const { query, ...page } = c.req.valid("query");
    const p = pageParams(page);
    const found = await listGroupMembers(db, group.id, query, p);
    return c.json(pageResponse(c, p, found.count, found.items), 200);
  });
