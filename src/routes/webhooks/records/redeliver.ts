import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { conflict, isUniqueViolation } from "../../../lib/errors";
import { currentAccess, requirePermission } from "../../../services/access";
import { getDelivery, getWebhookDelivery } from "../../../services/webhooks/config";
import { enqueueDeliveries } from "../../../services/webhooks/emit";
import { addAttempts } from "../../../services/webhooks/redelivery";
import { WEBHOOKS_TAG } from "../schema";
import { deliveryRecord, WebhookDeliverySchema } from "../../../services/records/webhook-deliveries";
import { RecordParams } from "./schema";

const route = createRoute({
  method: "post",
  path: "/inboxes/{inboxId}/webhooks/{webhookId}/records/{recordId}/redeliver/",
  tags: [WEBHOOKS_TAG],
  summary: "Send a record's event again",
  description:
    "Needs `webhook.manage`. Adds the event's next attempt, pending and queued, and returns it; the record named stays as it was. " +
    "It is sent with the webhook's current configuration and the same event id (`eventId`: the message's, or the lifecycle event's), so receivers can deduplicate. " +
    "A failed or a successful event may be sent again; one with an attempt still pending or being sent, or a disabled webhook, is a 409.",
  request: { params: RecordParams },
  responses: { 202: json(WebhookDeliverySchema, "The new attempt, pending"), ...errorResponses(403, 404, 409) },
});

export const registerRedeliverWebhookRecord = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "webhook.manage");
    const { inboxId, webhookId, recordId } = c.req.valid("param");
    const { webhook, record } = await getWebhookDelivery(c.var.db, access.organizationId, inboxId, webhookId, recordId);
    if (!webhook.isEnabled) throw conflict("The webhook is disabled; enable it to send records again.");
    const scope = {
      organizationId: access.organizationId,
      webhookId: webhook.id,
      url: webhook.url,
      eventId: deliveryRecord(record).eventId,
      onlyFailed: false,
    };
    const [id] = await addAttempts(c.var.db, scope).catch((err) => {
      // Two redeliveries of one event at once: the unique (message or event, webhook, attempt) lets one through.
      if (isUniqueViolation(err)) return [];
      throw err;
    });
    if (!id)
      throw conflict(
        "An attempt of this event is still pending or being sent; only a finished event can be sent again.",
      );
    const attempt = await getDelivery(c.var.db, access.organizationId, id, { webhookId: webhook.id });
    try {
      await enqueueDeliveries(c.env, [id]);
    } catch (err) {
      // The attempt stays pending: the housekeeping cron queues stranded pending deliveries again.
      console.warn(
        JSON.stringify({
          level: "warn",
          requestId: c.var.requestId,
          message: "redelivery not queued",
          error: String(err),
        }),
      );
    }
    return c.json(deliveryRecord(attempt), 202);
  });
