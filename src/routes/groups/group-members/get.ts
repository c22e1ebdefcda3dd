import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { findGroupMember } from "../../../services/groups";
import { GroupMemberSchema, groupMemberRecord } from "../../../services/records/group-members";
import { groupWith } from "../access";
import { GroupMemberParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/groups/{groupPk}/group-members/{id}/",
  tags: ["Roles and permissions"],
  summary: "Get a group member",
  description: "Needs `group.view`.",
  request: { params: GroupMemberParams },
  responses: { 200: json(GroupMemberSchema, "The group member"), ...errorResponses(403, 404) },
});

export const registerGetGroupMember = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, groupPk, id } = c.req.valid("param");
    const { group } = await groupWith(c, organizationPk, groupPk, "group.view");
    return c.json(groupMemberRecord(await findGroupMember(c.var.db, group.id, id)), 200);
  });
