import { createRoute, z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { webChats } from "../../db/schema";
import { badRequest, notFound } from "../../lib/errors";
import { currentAccess, requirePermission } from "../../services/access";
import { getWebChat } from "../../services/inboxes";
import { webChatRecord } from "../../services/records/web-chats";
import { challengeName, challengeValue, domainVerified, txtResolver } from "../../services/widget/domains";
import { WEB_CHATS_TAG, WebChatSchema } from "./schema";

const route = createRoute({
  method: "post",
  path: "/web-chats/{id}/custom-domain/verify/",
  tags: [WEB_CHATS_TAG],
  summary: "Check the custom domain's DNS record",
  description:
    "Needs `inbox.manage`. Looks up the TXT record `_assistant-platform-challenge.<domain>` (DNS over HTTPS); when it holds " +
    "`assistant-platform-verification=<customDomain.id>` the status becomes `active` (the domain then serves the full-page " +
    "chat at `/`), else `failed`. Point the domain at this worker (a Workers custom domain or route) as well. 400 without a custom domain.",
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
    ...errorResponses(400, 403, 404),
  },
});

export const registerVerifyWebChatDomain = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "inbox.manage");
    const id = c.req.valid("param").id;
    const view = await getWebChat(c.var.db, access.organizationId, id);
    if (!view) throw notFound();
    const domain = view.webChat.settings.customDomain;
    if (!domain) throw badRequest("This web chat has no custom domain.");
    const verified = await domainVerified(txtResolver(c.env), domain.domain, domain.id);
    const settings = {
      ...view.webChat.settings,
      customDomain: { ...domain, status: verified ? ("active" as const) : ("failed" as const) },
    };
    await c.var.db
      .update(webChats)
      .set({ settings, updatedAt: Date.now() })
      .where(and(eq(webChats.id, id), eq(webChats.organizationId, access.organizationId)));
    const record = webChatRecord((await getWebChat(c.var.db, access.organizationId, id))!);
    return c.json(
      { ...record, verification: { recordName: challengeName(domain.domain), recordValue: challengeValue(domain.id) } },
      200,
    );
  });
