import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { verifyWebChatDomain } from "../../services/web-chats";
import { WebChatSchema } from "../../services/records/web-chats";
import { WEB_CHATS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/web-chats/{id}/custom-domain/verify/",
  tags: [WEB_CHATS_TAG],
  summary: "Check the custom domain's DNS record",
  description:
    "Needs `inbox.manage`. Looks up the TXT record `_assistant-platform-challenge.<domain>` (DNS over HTTPS); " +
    "when it holds " +
    "`assistant-platform-verification=<customDomain.id>` the status becomes `active` (the domain then serves " +
    "the full-page " +
    "chat at `/`), else `failed`. Point the domain at this worker (a Workers custom domain or route) as well. " +
    "400 without a custom domain; 409 when another web chat's claim of the domain was verified first (a claim holds " +
    "the domain once verified, not before).",
  request: { params: IdParams },
  responses: {
    200: json(
      WebChatSchema.extend({
        verification: z
          .object({
            recordName: z.string().openapi({
              description: "TXT record to publish",
              example: "_assistant-platform-challenge.chat.example.com",
            }),
            recordValue: z
              .string()
              .openapi({ description: "Its value", example: "assistant-platform-verification=0190a5c2-..." }),
          })
          .openapi({ description: "What the DNS must hold" }),
      }).openapi("WebChatDomainCheck"),
      "The web chat with the domain's new status",
    ),
    ...errorResponses(400, 403, 404, 409),
  },
});

export const registerVerifyWebChatDomain = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "inbox.manage");
    return c.json(await verifyWebChatDomain(c.env, c.var.db, access.organizationId, c.req.valid("param").id), 200);
  });
