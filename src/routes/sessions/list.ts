import { createRoute } from "@hono/zod-openapi";
import { count } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { consoleSessions } from "../../db/schema";
import { liveSessionsOf, liveSessionsOrder } from "../../services/console-sessions";
import { consoleSessionRecord } from "../../services/records/console-sessions";
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
    const live = liveSessionsOf(userId);
    const [[{ n }], rows] = await Promise.all([
      c.var.db.select({ n: count() }).from(consoleSessions).where(live),
      c.var.db
        .select()
        .from(consoleSessions)
        .where(live)
        .orderBy(...liveSessionsOrder)
        .limit(p.limit)
        .offset(p.offset),
    ]);
    return c.json(
      pageResponse(
        c,
        p,
        n,
        rows.map((row) => consoleSessionRecord(row, session?.id ?? null)),
      ),
      200,
    );
  });
