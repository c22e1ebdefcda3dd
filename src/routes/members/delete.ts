import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, noContent } from "../../lib/openapi";
import { orgAccess, requirePermission } from "../../services/access";
import { memberToRemove, removeMember } from "../../services/members";
import { actorOf } from "../../services/assignment/release";
import { MemberParams } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/organizations/{organizationPk}/members/{id}/",
  tags: ["Members"],
  summary: "Remove a member from the organization",
  description:
    "Needs `member.manage`, except to leave: a member may remove themselves. The owner cannot be removed (400). " +
    "The unresolved conversations assigned to the member are unassigned (a `conversation.updated` lifecycle event " +
    "with `changes.assignee` and reason `operator` each); those waiting for a person go round-robin to the agents " +
    "who remain, as after an unassignment. Their personal assistants hosted by the organization (default inbox " +
    "in it) are deleted, with that inbox and its conversations, as an assistant's delete does.",
  request: { params: MemberParams },
  responses: { 204: noContent, ...errorResponses(400, 403, 404) },
});

export const registerDeleteMember = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, id } = c.req.valid("param");
    const access = await orgAccess(c, organizationPk);
    const target = await memberToRemove(c.var.db, access.organizationId, id);
    // Leaving needs no permission; removing someone else does.
    if (target.id !== access.memberId) requirePermission(access, "member.manage");
    const actor = actorOf(c.var.principal.user);
    await removeMember(c.env, c.var.db, access.organizationId, target, actor, c.executionCtx);
    return c.body(null, 204);
  });
