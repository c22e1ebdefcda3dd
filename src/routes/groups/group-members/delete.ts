import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, noContent } from "../../../lib/openapi";
import { removeGroupMember } from "../../../services/groups";
import { groupWith } from "../access";
import { actorOf, releaseUnserving } from "../../../services/assignment/release";
import { GroupMemberParams } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/organizations/{organizationPk}/groups/{groupPk}/group-members/{id}/",
  tags: ["Roles and permissions"],
  summary: "Remove a member from a group",
  description:
    "Needs `group.manage`. The member stays in the organization and loses the group's permissions; left without " +
    "`conversation.manage`, their unresolved conversations are unassigned, as removing them does.",
  request: { params: GroupMemberParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteGroupMember = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, groupPk, id } = c.req.valid("param");
    const { group } = await groupWith(c, organizationPk, groupPk, "group.manage");
    const memberId = await removeGroupMember(c.var.db, group.id, id);
    // Without conversation.manage now, they may serve no conversation: theirs go to those who may.
    const actor = actorOf(c.var.principal.user);
    await releaseUnserving(c.env, c.var.db, group.organizationId, [memberId], actor, c.executionCtx);
    return c.body(null, 204);
  });
