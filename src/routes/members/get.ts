import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { MemberSchema, memberRecord } from "../../services/records/members";
import { memberWith } from "./access";
import { MemberParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/members/{id}/",
  tags: ["Members"],
  summary: "A member of the organization",
  description: "Needs `member.view`.",
  request: { params: MemberParams },
  responses: { 200: json(MemberSchema, "The member"), ...errorResponses(403, 404) },
});

export const registerGetMember = (r: Router) =>
  r.openapi(route, async (c) => {
    const { organizationPk, id } = c.req.valid("param");
    const { member } = await memberWith(c, organizationPk, id, "member.view");
    return c.json(memberRecord(member), 200);
  });
