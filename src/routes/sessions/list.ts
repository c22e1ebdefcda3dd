import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { listSessions } from "../../services/console-sessions";
import { ConsoleSessionSchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/auth/sessions/",
  tags: ["Accounts"],
  summary: "The current user's console sessions that still work",
  description: "Neither revoked nor lapsed; most recently used first. `current` marks the session of the request.",
  request: { query: PageQuery },
  responses: { 200: json(pageOf(ConsoleSessionSchema, "ConsoleSessionPage"), "Sessions"), ...errorResponses(400, 404) },
});

export const registerListSessions = (r: Router) =>
  r.openapi(route, async (c) => {
    const p = pageParams(c.req.valid("query"));
    const { userId, session } = c.var.principal;
    const page = await listSessions(c.var.db, userId, session?.id ?? null, p);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
