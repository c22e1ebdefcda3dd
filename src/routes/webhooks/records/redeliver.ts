import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { conflict } from "../../../lib/errors";
import { currentAccess, requirePermission } from "../../../services/access";
import { getWebhookDelivery, resetForRedelivery } from "../../../services/webhooks/config";
import { enqueueDeliveries } from "../../../services/webhooks/emit";
import { WEBHOOKS_TAG } from "../schema";
import { deliveryRecord } from "../../../services/records/webhook-deliveries";
import { RecordParams, RecordSchema } from "./schema";

const route = createRoute({
  method: "post",
  path: "/inboxes/{inboxId}/webhooks/{webhookId}/records/{recordId}/redeliver/",
  tags: [WEBHOOKS_TAG],
  summary: "Send a delivery again",
  description:
    "Needs `webhook.manage`. A finished record (`failure`, or `success` when the receiver wants it again) goes back to `pending` " +
    "and is queued; it is sent with the webhook's current configuration and the same message id, so receivers can deduplicate. " +
    "A record still `pending` or `sending`, or a disabled webhook, is a 409.",
  request: { params: RecordParams },
  responses: { 202: json(RecordSchema, "The record, pending again"), ...errorResponses(403, 404, 409) },
});

export const registerRedeliverWebhookRecord = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "webhook.manage");
    const { inboxId, webhookId, recordId } = c.req.valid("param");
    const { webhook, record } = await getWebhookDelivery(c.var.db, access.organizationId, inboxId, webhookId, recordId);
    if (!webhook.isEnabled) throw conflict("The webhook is disabled; enable it to send records again.");
    const reset = await resetForRedelivery(c.var.db, record.delivery.id);
    if (!reset) throw conflict("This record is still pending or being sent; only a finished delivery can be sent again.");
    try {
      await enqueueDeliveries(c.env, [reset.id]);
    } catch (err) {
      // The record stays pending: the housekeeping cron queues stranded pending deliveries again.
      console.warn(JSON.stringify({ level: "warn", requestId: c.var.requestId, message: "redelivery not queued", error: String(err) }));
    }
    return c.json(deliveryRecord({ ...record, delivery: reset }), 202);
  });
