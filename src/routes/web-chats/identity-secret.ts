import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { replaceIdentitySecret } from "../../services/web-chats";
import { WEB_CHATS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/web-chats/{id}/identity-secret/",
  tags: [WEB_CHATS_TAG],
  summary: "Create or replace the web chat's identity secret (shown once)",
  description:
    "Needs `inbox.manage`. The business's backend signs each visitor's identity with it: `identityToken` = hex " +
    "HMAC-SHA256(secret, sourceId), or of `sourceId:expiresAt` with `identityExpiresAt`. Private web chats " +
    "accept only " +
    "signed identities. The secret is shown in this answer only; a new one replaces the old at once. 503 " +
    "without ENCRYPTION_KEY.",
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
    const access = await authorize(c, "inbox.manage");
    const secret = await replaceIdentitySecret(c.env, c.var.db, access.organizationId, c.req.valid("param").id);
    return c.json({ secret }, 200);
  });
