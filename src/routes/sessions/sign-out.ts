import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { clearedSessionCookie, revokeSession } from "../../services/console-sessions";
import { forgetSession } from "../../services/key-cache";

const route = createRoute({
  method: "delete",
  path: "/auth/sessions/current/",
  tags: ["Accounts"],
  summary: "Sign out of the operator console",
  description:
    "Revokes the session of the request and clears its cookie; the cookie no longer works anywhere. 404 for a " +
    "request made with an API key.",
  responses: { 204: { description: "Signed out" }, ...errorResponses(404) },
});

export const registerSignOut = (r: Router) =>
  r.openapi(route, async (c) => {
    const { userId, session } = c.var.principal;
    if (!session || !(await revokeSession(c.var.db, userId, session.id)))
      throw notFound("This request carries no console session (it was made with an API key).");
    forgetSession(session.id);
    c.header("Set-Cookie", clearedSessionCookie(c.req.url));
    return c.body(null, 204);
  });
