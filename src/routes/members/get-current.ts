import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { orgAccess } from "../../services/access";
import { getMember } from "../../services/members";
import { MemberSchema, memberRecord } from "../../services/records/members";
import { OrganizationParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/members/current/",
  tags: ["Members"],
  summary: "The caller's own membership",
  description: "Any member may read their own record; no permission is needed.",
  request: { params: OrganizationParams },
  responses: { 200: json(MemberSchema, "The caller's member record"), ...errorResponses(404) },
});

export const registerGetCurrentMember = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await orgAccess(c, c.req.valid("param").organizationPk);
    return c.json(memberRecord(await getMember(c.var.db, access.organizationId, access.memberId)), 200);
  });
