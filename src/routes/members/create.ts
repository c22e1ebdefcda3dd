import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { fieldError } from "../../lib/errors";
import { orgAccess, requirePermission } from "../../services/access";
import { addMember } from "../../services/members";
import { MemberSchema } from "../../services/records/members";
import { OrganizationParams } from "./schema";

const AddMember = z.object({
  email: z
    .email()
    .max(254)
    .openapi({ description: "E-mail address of a registered user", example: "grace@example.com" }),
  organization: z.uuid().optional().openapi({
    description: "Must be the organization in the path when sent",
    example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
  }),
});

const route = createRoute({
  method: "post",
  path: "/organizations/{organizationPk}/members/",
  tags: ["Members"],
  summary: "Add a registered user to the organization",
  description: "Needs `member.manage`. The new member is in no group until `update-groups`. 409 when already a member.",
  request: { params: OrganizationParams, ...jsonBody(AddMember) },
  responses: { 201: json(MemberSchema, "The new member"), ...errorResponses(400, 403, 404, 409, 415) },
});

export const registerCreateMember = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await orgAccess(c, c.req.valid("param").organizationPk);
    requirePermission(access, "member.manage");
    const body = c.req.valid("json");
    if (body.organization && body.organization !== access.organizationId) {
      throw fieldError("organization", "Must be the organization in the path.");
    }
    return c.json(await addMember(c.var.db, access.organizationId, body.email), 201);
  });
