import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { dataParts } from "../../../services/shards/parts";
import { authorize } from "../../../services/access";
import { getWebhookDelivery } from "../../../services/webhooks/config";
import { WEBHOOKS_TAG } from "../schema";
import { deliveryRecord, WebhookDeliverySchema } from "../../../services/records/webhook-deliveries";
import { RecordParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/inboxes/{inboxId}/webhooks/{webhookId}/records/{recordId}/",
  tags: [WEBHOOKS_TAG],
  summary: "Get a delivery record of a webhook",
  description: "Needs `webhook.manage`.",
  request: { params: RecordParams },
  responses: { 200: json(WebhookDeliverySchema, "The delivery record"), ...errorResponses(403, 404) },
});

export const registerGetWebhookRecord = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "webhook.manage");
    const { inboxId, webhookId, recordId } = c.req.valid("param");
    const parts = await dataParts(c.env, access.organizationId);
    const { record } = await getWebhookDelivery(
      c.env,
      c.var.db,
      parts,
      access.organizationId,
      inboxId,
      webhookId,
      recordId,
    );
    return c.json(deliveryRecord(record), 200);
  });
