import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { orgAccess, requirePermission } from "../../services/access";
import { findMember } from "../../services/members";
import { memberRecord } from "../../services/records/members";
import { MemberParams, MemberSchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/members/{id}/",
  tags: ["Members"],
  summary: "A member of the organization",
  description: "Requires `member.view`.",
  request: { params: MemberParams },
  responses: { 200: json(MemberSchema, "The member"), ...errorResponses(403, 404) },
});

export const registerGetMember = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, id } = c.req.valid("param");
    const access = await orgAccess(c, organizationPk);
    requirePermission(access, "member.view");
    const member = await findMember(c.var.db, access.organizationId, id);
    if (!member) throw notFound();
    return c.json(memberRecord(member), 200);
  });
