import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { forbidden } from "../../lib/errors";
import { setMemberGroups } from "../../services/permission-changes";
import { MemberSchema, memberRecord } from "../../services/records/members";
import { memberWith } from "./access";
import { actorOf } from "../../services/assignment/release";
import { MemberParams } from "./schema";

const UpdateGroups = z.object({
  groups: z
    .array(z.uuid())
    .max(50)
    .openapi({
      description: "Ids of every group the member should be in (replaces the current set; [] removes all)",
      example: ["0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d"],
    }),
});

const route = createRoute({
  method: "post",
  path: "/organizations/{organizationPk}/members/{id}/update-groups/",
  tags: ["Members"],
  summary: "Replace a member's groups",
  description:
    "Needs `member.manage`: assigning roles is managing the member (group.manage governs the groups themselves). " +
    "Groups decide permissions, so a member who is not an owner cannot change their own groups, nor give a group " +
    "holding permissions they lack (403). " +
    "Every id must be a group of this organization (400); the replacement is atomic. A member left without " +
    "`conversation.manage` has their unresolved conversations unassigned, as removing them does.",
  request: { params: MemberParams, ...jsonBody(UpdateGroups) },
  responses: { 200: json(MemberSchema, "The member with its new groups"), ...errorResponses(400, 403, 404, 415) },
});

export const registerUpdateMemberGroups = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, id } = c.req.valid("param");
    const { access, member } = await memberWith(c, organizationPk, id, "member.manage");
    if (member.member.id === access.memberId && !access.isOwner) throw forbidden("You cannot change your own groups.");
    const actor = actorOf(c.var.principal.user);
    const { groups } = c.req.valid("json");
    const view = await setMemberGroups(c.env, c.var.db, c.executionCtx, access, actor, member.member.id, groups);
    return c.json(memberRecord(view), 200);
  });
