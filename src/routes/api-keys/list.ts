import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { listApiKeys } from "../../services/api-keys";
import { ApiKeySchema } from "../../services/records/api-keys";

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
    const page = await listApiKeys(c.var.db, c.var.principal.userId, p);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
