import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { forbidden } from "../../../lib/errors";
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
    "Needs `group.manage`, and for non-owners every permission of the group; a non-owner cannot add themselves " +
    "(403), as they cannot change their own groups through `update-groups`. Every id must be a member of " +
    "the organization, else 400 and nothing is added. " +
    "Members already in the group are skipped; the response lists the memberships created.",
  request: { params: GroupPkParams, ...jsonBody(BulkCreateGroupMembers) },
  responses: { 201: json(z.array(GroupMemberSchema), "Created group members"), ...errorResponses(400, 403, 404) },
});

export const registerBulkCreateGroupMembers = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, groupPk } = c.req.valid("param");
    const { access, group } = await groupWith(c, organizationPk, groupPk, "group.manage");
    const { members } = c.req.valid("json");
    // A group opens what is given to it (assistants, tools, skills...) besides its permissions: joining one would let
    // a manager see what was never shared with them, which adding it to their own group would have refused.
    if (!access.isOwner && members.some((id) => id.toLowerCase() === access.memberId))
      throw forbidden("You cannot add yourself to a group.");
    requireGrantable(access, await groupPermissionIds(c.var.db, group.id));
    const created = await addGroupMembers(c.var.db, group, members);
    return c.json(created, 201);
  });
