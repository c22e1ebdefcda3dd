import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, noContent } from "../../../lib/openapi";
import { removeGroupMember } from "../../../services/groups";
import { groupWith } from "../access";
import { GroupMemberParams } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/organizations/{organizationPk}/groups/{groupPk}/group-members/{id}/",
  tags: ["Roles and permissions"],
  summary: "Remove a member from a group",
  description: "Needs `group.manage`. The member stays in the organization and loses the group's permissions.",
  request: { params: GroupMemberParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteGroupMember = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, groupPk, id } = c.req.valid("param");
    const { group } = await groupWith(c, organizationPk, groupPk, "group.manage");
    await removeGroupMember(c.var.db, group.id, id);
    return c.body(null, 204);
  });
