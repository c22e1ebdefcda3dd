import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, noContent } from "../../../lib/openapi";
import { orgAccess, requirePermission } from "../../../services/access";
import { findGroup, removeGroupMember } from "../../../services/groups";
import { GroupMemberParams } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/organizations/{organizationPk}/groups/{groupPk}/group-members/{id}/",
  tags: ["Roles and permissions"],
  summary: "Remove a member from a group",
  description: "Requires `group.manage`. The member stays in the organization and loses the group's permissions.",
  request: { params: GroupMemberParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteGroupMember = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, groupPk, id } = c.req.valid("param");
    const access = await orgAccess(c, organizationPk);
    requirePermission(access, "group.manage");
    const group = await findGroup(c.var.db, access.organizationId, groupPk);
    await removeGroupMember(c.var.db, group.id, id);
    return c.body(null, 204);
  });
