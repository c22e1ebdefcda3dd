import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { conflict } from "../../../lib/errors";
import { dataParts } from "../../../services/shards/parts";
import { authorize, conversationData } from "../../../services/access";
import { getWebhookDelivery } from "../../../services/webhooks/config";
import { addEventAttempt, queueAttempts } from "../../../services/webhooks/redelivery";
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
    const { webhook, record } = await getWebhookDelivery(
      c.env,
      c.var.db,
      await dataParts(c.env, access.organizationId),
      access.organizationId,
      inboxId,
      webhookId,
      recordId,
    );
    if (!webhook.isEnabled) throw conflict("The webhook is disabled; enable it to send records again.");
    // The event's attempts are in its conversation's part (a delivery from before conversations were named: the
    // organization's own).
    const { conversationId } = record.delivery;
    const data = conversationId ? await conversationData(c, conversationId) : c.var.data;
    const attempt = await addEventAttempt(c.env, c.var.db, data, access.organizationId, webhook, record);
    await queueAttempts(c.env, access.organizationId, [attempt.delivery.id], {
      requestId: c.var.requestId,
      message: "redelivery not queued",
    });
    return c.json(deliveryRecord(attempt), 202);
  });
