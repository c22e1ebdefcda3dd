import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { requireGrantable } from "../../../services/access";
import { addGroupMembers, groupPermissionIds } from "../../../services/groups";
import { GroupMemberSchema } from "../../../services/records/group-members";
import { groupWith } from "../access";
import { BulkCreateGroupMembers, GroupPkParams } from "./schema";

const route = createRoute({
  method: "post",
  path: "/organizations/{organizationPk}/groups/{groupPk}/group-members/bulk-create/",
  tags: ["Roles and permissions"],
  summary: "Add organization members to a group",
  description:
    "Needs `group.manage`, and for non-owners every permission of the group. Every id must be a member of " +
    "the organization, else 400 and nothing is added. " +
    "Members already in the group are skipped; the response lists the memberships created.",
  request: { params: GroupPkParams, ...jsonBody(BulkCreateGroupMembers) },
  responses: { 201: json(z.array(GroupMemberSchema), "Created group members"), ...errorResponses(400, 403, 404) },
});

export const registerBulkCreateGroupMembers = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, groupPk } = c.req.valid("param");
    const { access, group } = await groupWith(c, organizationPk, groupPk, "group.manage");
    requireGrantable(access, await groupPermissionIds(c.var.db, group.id));
    const created = await addGroupMembers(c.var.db, group, c.req.valid("json").members);
    return c.json(created, 201);
  });
