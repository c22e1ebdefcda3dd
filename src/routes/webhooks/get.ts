import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getWebhook } from "../../services/webhooks/config";
import { webhookRecord, WebhookSchema } from "../../services/records/webhooks";
import { WEBHOOKS_TAG, WebhookParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/inboxes/{inboxId}/webhooks/{webhookId}/",
  tags: [WEBHOOKS_TAG],
  summary: "Get a webhook of an inbox",
  description:
    "Needs `webhook.manage`. The secret token is never returned, only whether one is set and a masked preview.",
  request: { params: WebhookParams },
  responses: { 200: json(WebhookSchema, "The webhook"), ...errorResponses(403, 404) },
});

export const registerGetWebhook = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "webhook.manage");
    const { inboxId, webhookId } = c.req.valid("param");
    return c.json(
      await webhookRecord(await getWebhook(c.var.db, access.organizationId, inboxId, webhookId), c.env),
      200,
    );
  });
