import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { clearedSessionCookie, revokeSession } from "../../services/console-sessions";
import { forgetSession } from "../../services/key-cache";

const route = createRoute({
  method: "delete",
  path: "/auth/sessions/{id}/",
  tags: ["Accounts"],
  summary: "Revoke one of the current user's console sessions at once",
  description: "Revoking the session of the request also clears its cookie (as signing out does).",
  request: { params: IdParams },
  responses: { 204: { description: "Revoked" }, ...errorResponses(404) },
});

export const registerRevokeSession = (r: Router) =>
  r.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { userId, session } = c.var.principal;
    if (!(await revokeSession(c.var.db, userId, id))) throw notFound();
    forgetSession(id);
    if (session?.id === id) c.header("Set-Cookie", clearedSessionCookie(c.req.url));
    return c.body(null, 204);
  });
