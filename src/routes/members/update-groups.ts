import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { fieldError, forbidden } from "../../lib/errors";
import { requireGrantable } from "../../services/access";
import { groupPermissionIds } from "../../services/groups";
import { getMember, organizationGroupIds, replaceMemberGroups } from "../../services/members";
import { MemberSchema, memberRecord } from "../../services/records/members";
import { memberWith } from "./access";
import { actorOf, releaseUnserving } from "../../services/assignment/release";
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
    const db = c.var.db;
    if (member.member.id === access.memberId && !access.isOwner) throw forbidden("You cannot change your own groups.");
    const wanted = [...new Set(c.req.valid("json").groups)];
    const known = await organizationGroupIds(db, access.organizationId, wanted);
    const unknown = wanted.filter((g) => !known.has(g));
    if (unknown.length) throw fieldError("groups", `Not a group of this organization: ${unknown.join(", ")}.`);
    for (const groupId of wanted) requireGrantable(access, await groupPermissionIds(db, groupId));
    await replaceMemberGroups(db, member.member.id, wanted);
    // Without conversation.manage now, they may serve no conversation: theirs go to those who may.
    const actor = actorOf(c.var.principal.user);
    await releaseUnserving(c.env, db, access.organizationId, [member.member.id], actor, c.executionCtx);
    return c.json(memberRecord(await getMember(db, access.organizationId, id)), 200);
  });
