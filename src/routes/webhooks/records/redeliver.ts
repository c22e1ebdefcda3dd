import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { dataParts } from "../../../services/shards/parts";
import { authorize } from "../../../services/access";
import { getWebhookDelivery } from "../../../services/webhooks/config";
import { redeliverRecord } from "../../../services/webhooks/redelivery";
import { WEBHOOKS_TAG } from "../schema";
import { deliveryRecord, WebhookDeliverySchema } from "../../../services/records/webhook-deliveries";
import { RecordParams } from "./schema";

const route = createRoute({
  method: "post",
  path: "/inboxes/{inboxId}/webhooks/{webhookId}/records/{recordId}/redeliver/",
  tags: [WEBHOOKS_TAG],
  summary: "Send a record's event again",
  description:
    "Needs `webhook.manage`. Adds the event's next attempt, pending and queued, and returns it; the record " +
    "named stays as it was. " +
    "It is sent with the webhook's current configuration and the same event id (`eventId`: the message's, or " +
    "the lifecycle event's), so receivers can deduplicate. " +
    "A failed or a successful event may be sent again; one with an attempt still pending or being sent, or a " +
    "disabled webhook, is a 409.",
  request: { params: RecordParams },
  responses: { 202: json(WebhookDeliverySchema, "The new attempt, pending"), ...errorResponses(403, 404, 409) },
});

export const registerRedeliverWebhookRecord = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "webhook.manage");
    const { inboxId, webhookId, recordId } = c.req.valid("param");
    const { db, data, requestId } = c.var;
    const parts = await dataParts(c.env, access.organizationId);
    const found = await getWebhookDelivery(c.env, db, parts, access.organizationId, inboxId, webhookId, recordId);
    const attempt = await redeliverRecord(c.env, db, data, access.organizationId, found, requestId);
    return c.json(deliveryRecord(attempt), 202);
  });
