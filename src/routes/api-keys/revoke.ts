import { createRoute } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { apiKeys } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { forgetApiKey } from "../../services/key-cache";

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
    const { id } = c.req.valid("param");
    const revoked = await c.var.db
      .update(apiKeys)
      .set({ revokedAt: Date.now() })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, c.var.principal.userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    if (!revoked.length) throw notFound();
    forgetApiKey(id);
    return c.body(null, 204);
  });
