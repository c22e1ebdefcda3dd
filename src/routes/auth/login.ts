import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { logIn } from "../../services/auth";

const Login = z.object({
  email: z.email().openapi({ description: "The user's e-mail address, in any case", example: "ada@example.com" }),
  password: z.string().min(1).openapi({
    description: "The user's password; a wrong one, like an unknown e-mail, is a 400 that says no more",
    example: "correct horse battery",
  }),
});

const route = createRoute({
  method: "post",
  path: "/auth/login/",
  tags: ["Accounts"],
  summary: "Log in with e-mail and password",
  description:
    "Public. Returns a new API key for the user. Failed log-ins count with the console's failed sign-ins " +
    "(`POST /auth/sessions/`): past the limit, 429 with `Retry-After`.",
  security: [],
  request: jsonBody(Login),
  responses: {
    200: json(
      z
        .object({
          key: z.string().openapi({
            description: 'A new API key for the user, named "Login", acting in no organization by default; shown once',
            example: "ak_4f3a...",
          }),
        })
        .openapi("LoginResult"),
      "A new API key",
    ),
    ...errorResponses(400, 429),
  },
});

export const registerLogin = (r: Router) =>
  r.openapi(route, async (c) => {
    const { email, password } = c.req.valid("json");
    const client = c.req.header("CF-Connecting-IP") ?? null;
    return c.json({ key: await logIn(c.env, c.var.db, { email, client }, password) }, 200);
  });
