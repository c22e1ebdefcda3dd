import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { NameField, errorResponses, json, jsonBody } from "../../lib/openapi";
import { forbidden } from "../../lib/errors";
import { register } from "../../services/auth";
import { planSettings } from "../../services/plans";
import { OrganizationSchema } from "../../services/records/organizations";
import { PersonNameField } from "../../services/records/users";
import { UserSchema } from "../users/schema";
import { password, samePasswords } from "./schema";

const Registration = z
  .object({
    email: z.email().max(254).openapi({
      description: "The user's e-mail address, their sign-in name, kept in lower case (409 if a user has it)",
      example: "ada@example.com",
    }),
    password1: password("Password, at least 8 characters"),
    password2: password("The same password again"),
    name: PersonNameField("The user's name as people see it, 1-150 characters"),
    company: NameField("Name of the organization created for the user", "Acme"),
    referralCode: z.string().max(100).optional().openapi({
      description: "Accepted for clients that send it (at most 100 characters); it is not stored and changes nothing",
      example: "FRIEND2026",
    }),
    authSource: z
      .object({ id: z.string().min(1).openapi({ description: "A name for the source, not empty" }) })
      .optional()
      .openapi({
        description: "Where the sign-up came from; accepted for clients that send it, not stored",
        example: { id: "web" },
      }),
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
    "403 unless the deployment sets `REGISTRATION_ENABLED` to `true` (`npm run dev` does; wrangler.toml does not). " +
    "With `BOOTSTRAP_API_KEY` set and no user yet, the first administrator is created first (as by the first " +
    "request with that key).",
  security: [],
  request: jsonBody(Registration),
  responses: { 201: json(Registered, "Registered"), ...errorResponses(400, 403, 409) },
});

export const registerRegistration = (r: Router) =>
  r.openapi(route, async (c) => {
    // Closed unless the deployment opens it (docs/decisions.md, "Safe defaults").
    if (c.env.REGISTRATION_ENABLED !== "true")
      throw forbidden('Registration is disabled on this server (REGISTRATION_ENABLED is not "true").');
    const { email, name, company, password1 } = c.req.valid("json");
    const registered = await register(
      c.env,
      c.var.db,
      { email, name, company, password: password1 },
      planSettings(c.env),
    );
    return c.json(registered, 201);
  });
