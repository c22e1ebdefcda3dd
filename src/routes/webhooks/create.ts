import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { checkWebhookRules, getWebhook, insertWebhook, requireInbox } from "../../services/webhooks/config";
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
    const inbox = await requireInbox(c.var.db, access.organizationId, c.req.valid("param").inboxId);
    const { secretToken, ...body } = c.req.valid("json");
    const templatePreset = body.templatePreset ?? "service_standard";
    const conversationEvents = body.conversationEvents ?? false;
    checkWebhookRules(c.env, {
      url: body.url,
      templatePreset,
      customTemplate: body.customTemplate,
      storedTemplate: null,
      direction: body.direction,
      conversationEvents,
    });
    const id = await insertWebhook(
      c.var.db,
      c.env,
      access.organizationId,
      inbox.id,
      {
        name: body.name,
        direction: body.direction,
        isEnabled: body.isEnabled ?? true,
        retryFailedDeliveries: body.retryFailedDeliveries ?? false,
        conversationEvents,
        url: body.url,
        method: body.method ?? "POST",
        headers: body.headers ?? {},
        templatePreset,
        customTemplate: body.customTemplate ?? null,
      },
      secretToken,
    );
    return c.json(await webhookRecord(await getWebhook(c.var.db, access.organizationId, inbox.id, id), c.env), 201);
  });
