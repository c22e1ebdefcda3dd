import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { ConsoleSessionStateSchema } from "./schema";
import { sessionState } from "../../services/console-sessions";

const route = createRoute({
  method: "get",
  path: "/auth/sessions/current/",
  tags: ["Accounts"],
  summary: "The console session of the request, its user and their memberships",
  description:
    "For the operator console: the session (from the cookie), the user, and every organization they belong to " +
    "with the permission " +
    "codenames they hold there, so the console can hide what they may not do (the API still decides). 404 for " +
    "a request made with an API key.",
  responses: { 200: json(ConsoleSessionStateSchema, "The session"), ...errorResponses(404) },
});

export const registerGetCurrentSession = (r: Router) =>
  r.openapi(route, async (c) => {
    const { session, user } = c.var.principal;
    if (!session) throw notFound("This request carries no console session (it was made with an API key).");
    return c.json(await sessionState(c.var.db, session, user), 200);
  });
