import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { revokeApiKey } from "../../services/api-keys";

const route = createRoute({
  method: "delete",
  path: "/api-keys/{id}/",
  tags: ["API keys"],
  summary: "Revoke an API key at once",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(404) },
});

export const registerRevokeApiKey = (r: Router) =>
  r.openapi(route, async (c) => {
    await revokeApiKey(c.var.db, c.var.principal.userId, c.req.valid("param").id);
    return c.body(null, 204);
  });
