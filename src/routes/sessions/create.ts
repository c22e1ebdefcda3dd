import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { forbidden } from "../../lib/errors";
import { sessionCookie, signIn } from "../../services/console-sessions";
import { ConsoleSessionStateSchema, SignIn } from "./schema";

const route = createRoute({
  method: "post",
  path: "/auth/sessions/",
  tags: ["Accounts"],
  summary: "Sign in to the operator console",
  description:
    "Public. With `email` and `password`, or with an API key of the user (`apiKey`), creates a console " +
    "session: its id is set in the " +
    "`console_session` cookie (HttpOnly, SameSite=Strict, Secure outside localhost), stored only as a hash, " +
    "and lapses 12 hours after its " +
    "last use. Requests with the cookie act as the user, like their API key; those that change data must send " +
    "the console's own `Origin`. " +
    "No API key is created. The first administrator signs in with `BOOTSTRAP_EMAIL` and `BOOTSTRAP_PASSWORD` " +
    "when the deployment sets them " +
    "(with no user yet, this creates them as the first request with `BOOTSTRAP_API_KEY` does). A sign-in sent " +
    "from another site's page (`Origin` of another origin) is 403. After " +
    "`SIGN_IN_FAILURES_PER_EMAIL` (default 10) failed sign-ins for one e-mail from one address, " +
    "`SIGN_IN_FAILURES_PER_ACCOUNT` (default 100) for one e-mail from every address, or " +
    "`SIGN_IN_FAILURES_PER_CLIENT` (default 50) from one address, in 15 minutes, those sign-ins are 429 with " +
    "`Retry-After` until the 15 minutes end (an IPv6 address counts by its /64).",
  security: [],
  request: jsonBody(SignIn),
  responses: {
    201: json(ConsoleSessionStateSchema, "Signed in; the cookie is in `Set-Cookie`"),
    ...errorResponses(400, 403, 429),
  },
});

export const registerSignIn = (r: Router) =>
  r.openapi(route, async (c) => {
    // Browsers send Origin with every POST: a sign-in posted by another site must not replace the user's session with
    // the attacker's.
    const origin = c.req.header("Origin");
    if (origin !== undefined && origin !== new URL(c.req.url).origin)
      throw forbidden("Sign in from the console's own origin.");
    const body = c.req.valid("json");
    const { token, state } = await signIn(c.env, c.var.db, body, {
      userAgent: c.req.header("User-Agent") ?? null,
      client: c.req.header("CF-Connecting-IP") ?? null,
    });
    c.header("Set-Cookie", sessionCookie(c.req.url, token));
    return c.json(state, 201);
  });
