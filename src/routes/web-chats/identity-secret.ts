import { createRoute, z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { webChats } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { encryptSecret, randomBase62 } from "../../lib/crypto";
import { currentAccess, requirePermission } from "../../services/access";
import { WEB_CHATS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/web-chats/{id}/identity-secret/",
  tags: [WEB_CHATS_TAG],
  summary: "Create or replace the web chat's identity secret (shown once)",
  description:
    "Needs `inbox.manage`. The business's backend signs each visitor's identity with it: `identityToken` = hex " +
    "HMAC-SHA256(secret, sourceId), or of `sourceId:expiresAt` with `identityExpiresAt`. Private web chats accept only " +
    "signed identities. The secret is shown in this answer only; a new one replaces the old at once. 503 without ENCRYPTION_KEY.",
  request: { params: IdParams },
  responses: {
    200: json(
      z
        .object({
          secret: z
            .string()
            .openapi({ description: "The identity secret; store it in your backend", example: "wcs_Vx3...9Qa" }),
        })
        .openapi("WebChatIdentitySecret"),
      "The new secret",
    ),
    ...errorResponses(403, 404, 503),
  },
});

export const registerWebChatIdentitySecret = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "inbox.manage");
    const secret = `wcs_${randomBase62(40)}`;
    const sealed = await encryptSecret(secret, c.env.ENCRYPTION_KEY);
    const [row] = await c.var.db
      .update(webChats)
      .set({
        settings: sql`json_set(${webChats.settings}, '$.identitySecretSealed', ${sealed})`,
        updatedAt: Date.now(),
      })
      .where(and(eq(webChats.id, c.req.valid("param").id), eq(webChats.organizationId, access.organizationId)))
      .returning({ id: webChats.id });
    if (!row) throw notFound();
    return c.json({ secret }, 200);
  });
