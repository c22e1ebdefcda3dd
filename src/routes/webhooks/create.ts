import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { createWebhook } from "../../services/webhooks/change";
import { webhookRecord, WebhookSchema, WebhookWrite } from "../../services/records/webhooks";
import { InboxParams, WEBHOOKS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/inboxes/{inboxId}/webhooks/",
  tags: [WEBHOOKS_TAG],
  summary: "Add a webhook to an inbox",
  description:
    "Needs `webhook.manage`. The URL is checked against SSRF protection and a custom template is rendered " +
    "once with test data (400 naming the field). " +
    "`secretToken` is write-only: stored encrypted, shown only as `hasSecretToken` and a masked `secretTokenPreview`.",
  request: { params: InboxParams, ...jsonBody(WebhookWrite) },
  responses: { 201: json(WebhookSchema, "The created webhook"), ...errorResponses(400, 403, 404) },
});

export const registerCreateWebhook = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "webhook.manage");
    const { inboxId } = c.req.valid("param");
    const view = await createWebhook(c.var.db, c.env, access.organizationId, inboxId, c.req.valid("json"));
    return c.json(await webhookRecord(view, c.env), 201);
  });
