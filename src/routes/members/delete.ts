import { createRoute } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, noContent } from "../../lib/openapi";
import { members } from "../../db/schema";
import { badRequest, notFound } from "../../lib/errors";
import { orgAccess, requirePermission } from "../../services/access";
import { MemberParams } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/organizations/{organizationPk}/members/{id}/",
  tags: ["Members"],
  summary: "Remove a member from the organization",
  description:
    "Requires `member.manage`, except to leave: a member may remove themselves. The owner cannot be removed (400).",
  request: { params: MemberParams },
  responses: { 204: noContent, ...errorResponses(400, 403, 404) },
});

export const registerDeleteMember = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, id } = c.req.valid("param");
    const access = await orgAccess(c, organizationPk);
    const db = c.var.db;
    const inThisOrganization = and(eq(members.id, id), eq(members.organizationId, access.organizationId));
    const [target] = await db
      .select({ id: members.id, isOwner: members.isOwner })
      .from(members)
      .where(inThisOrganization);
    if (!target) throw notFound();
    if (target.id !== access.memberId) requirePermission(access, "member.manage");
    if (target.isOwner) throw badRequest("The owner of the organization cannot be removed.");
    await db.delete(members).where(inThisOrganization);
    return c.body(null, 204);
  });
