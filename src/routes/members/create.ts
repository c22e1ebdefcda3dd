import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { members, users } from "../../db/schema";
import { conflict, fieldError, isUniqueViolation } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import { orgAccess, requirePermission } from "../../services/access";
import { findMember } from "../../services/members";
import { memberRecord } from "../../services/records/members";
import { MemberSchema, OrganizationParams } from "./schema";

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
  description:
    "Requires `member.manage`. The new member is in no group until `update-groups`. 409 when already a member.",
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
    const db = c.var.db;
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, body.email.toLowerCase()));
    if (!user) throw fieldError("email", "No registered user has this e-mail address.");
    const id = uuidv7();
    try {
      await db.insert(members).values({ id, organizationId: access.organizationId, userId: user.id });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("This user is already a member of the organization.");
      throw err;
    }
    return c.json(memberRecord((await findMember(db, access.organizationId, id))!), 201);
  });
