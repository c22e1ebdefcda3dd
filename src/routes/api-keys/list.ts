import { createRoute } from "@hono/zod-openapi";
import { count, desc, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { apiKeys } from "../../db/schema";
import { apiKeyRecord } from "../../services/records/api-keys";
import { ApiKeySchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/api-keys/",
  tags: ["API keys"],
  summary: "List the current user's API keys (never their secrets)",
  request: { query: PageQuery },
  responses: { 200: json(pageOf(ApiKeySchema, "ApiKeyPage"), "Keys, newest first"), ...errorResponses(400, 404) },
});

export const registerListApiKeys = (r: Router) =>
  r.openapi(route, async (c) => {
    const p = pageParams(c.req.valid("query"));
    const mine = eq(apiKeys.userId, c.var.principal.userId);
    const [[{ n }], rows] = await Promise.all([
      c.var.db.select({ n: count() }).from(apiKeys).where(mine),
      c.var.db
        .select()
        .from(apiKeys)
        .where(mine)
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    return c.json(pageResponse(c, p, n, rows.map(apiKeyRecord)), 200);
  });
