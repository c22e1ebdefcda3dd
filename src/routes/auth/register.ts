import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { conflict, forbidden, isUniqueViolation } from "../../lib/errors";
import { hashPassword } from "../../lib/crypto";
import { createAccount } from "../../services/accounts";
import { getOrganizationRecord } from "../../services/organizations";
import { planSettings } from "../../services/plans";
import { OrganizationSchema } from "../organizations/schema";
import { userRecord } from "../../services/records/users";
import { UserSchema } from "../users/schema";
import { users } from "../../db/schema";
import { eq } from "drizzle-orm";
import { password, samePasswords } from "./schema";

const Registration = z
  .object({
    email: z.email().max(254).openapi({ example: "ada@example.com" }),
    password1: password("Password, at least 8 characters"),
    password2: password("The same password again"),
    name: z.string().trim().min(1).max(150).openapi({ example: "Ada Lovelace" }),
    company: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .openapi({ description: "Name of the organization created for the user", example: "Acme" }),
    referralCode: z.string().max(100).optional().openapi({ example: "FRIEND2026" }),
    authSource: z
      .object({ id: z.string().min(1) })
      .optional()
      .openapi({ description: "Where the sign-up came from", example: { id: "web" } }),
  })
  .superRefine(samePasswords("password1", "password2"));

const Registered = z
  .object({
    user: UserSchema,
    organization: OrganizationSchema,
    apiKey: z.string().openapi({ description: "API key, shown once", example: "ak_4f3a..." }),
  })
  .openapi("Registration");

const route = createRoute({
  method: "post",
  path: "/auth/registration/",
  tags: ["Accounts"],
  summary: "Register a user with their own organization",
  description:
    "Public. Creates the user, an organization named after `company` owned by them, and a first API key. " +
    "403 unless the deployment sets `REGISTRATION_ENABLED` to `true` (`npm run dev` does; wrangler.toml does not).",
  security: [],
  request: jsonBody(Registration),
  responses: { 201: json(Registered, "Registered"), ...errorResponses(400, 403, 409) },
});

export const registerRegistration = (r: Router) =>
  r.openapi(route, async (c) => {
    // Closed unless the deployment opens it (docs/decisions.md, "Safe defaults").
    if (c.env.REGISTRATION_ENABLED !== "true")
      throw forbidden('Registration is disabled on this server (REGISTRATION_ENABLED is not "true").');
    const body = c.req.valid("json");
    const db = c.var.db;
    let account;
    try {
      account = await createAccount(db, {
        email: body.email,
        name: body.name,
        company: body.company,
        passwordHash: await hashPassword(body.password1),
        planId: planSettings(c.env).defaultPlan.id,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("A user is already registered with this e-mail address.");
      throw err;
    }
    const [[user], organization] = await Promise.all([
      db.select().from(users).where(eq(users.id, account.userId)),
      getOrganizationRecord(db, account.organizationId, planSettings(c.env)),
    ]);
    return c.json({ user: userRecord(user), organization: organization!, apiKey: account.key }, 201);
  });
