import { createRoute, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { apiKeys, users } from "../../db/schema";
import { badRequest } from "../../lib/errors";
import { verifyPassword } from "../../lib/crypto";
import { apiKeyValues } from "../../services/accounts";

const Login = z.object({
  email: z.email().openapi({ example: "ada@example.com" }),
  password: z.string().min(1).openapi({ example: "correct horse battery" }),
});

const route = createRoute({
  method: "post",
  path: "/auth/login/",
  tags: ["Accounts"],
  summary: "Log in with e-mail and password",
  description: "Public. Returns a new API key for the user.",
  security: [],
  request: jsonBody(Login),
  responses: {
    200: json(z.object({ key: z.string().openapi({ example: "ak_4f3a..." }) }).openapi("LoginResult"), "A new API key"),
    ...errorResponses(400),
  },
});

export const registerLogin = (r: Router) =>
  r.openapi(route, async (c) => {
    const { email, password } = c.req.valid("json");
    const db = c.var.db;
    const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
    const ok = user?.passwordHash ? await verifyPassword(password, user.passwordHash) : false;
    if (!user || !ok) throw badRequest("Unable to log in with provided credentials.", undefined, "invalid_credentials");
    const { key, values } = await apiKeyValues(user.id, null, "Login");
    await db.batch([
      db.insert(apiKeys).values(values),
      db.update(users).set({ lastLoginAt: Date.now() }).where(eq(users.id, user.id)),
    ]);
    return c.json({ key }, 200);
  });
