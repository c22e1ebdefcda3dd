import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { dataParts } from "../../services/shards/parts";
import { errorResponses, noContent } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { deleteWebhook, getWebhook } from "../../services/webhooks/config";
import { WEBHOOKS_TAG, WebhookParams } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/inboxes/{inboxId}/webhooks/{webhookId}/",
  tags: [WEBHOOKS_TAG],
  summary: "Delete a webhook",
  description: "Needs `webhook.manage`. Its delivery records go with it; pushes not yet sent are dropped.",
  request: { params: WebhookParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteWebhook = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "webhook.manage");
    const { inboxId, webhookId } = c.req.valid("param");
    const { webhook } = await getWebhook(c.var.db, access.organizationId, inboxId, webhookId);
    await deleteWebhook(c.var.db, await dataParts(c.env, access.organizationId), access.organizationId, webhook.id);
    return c.body(null, 204);
  });
