import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { Timestamp, errorResponses, json } from "../../lib/openapi";
import { ms } from "../../lib/time";
import { authorize } from "../../services/access";
import { getWebhook } from "../../services/webhooks/config";
import { sendTestEvent } from "../../services/webhooks/test-event";
import { EXAMPLE_ID, WEBHOOKS_TAG, WebhookParams } from "./schema";

const TestSendResult = z
  .object({
    eventId: z.string().openapi({
      description: "The test event's id (the payload's `id` and the `webhook-id` header), new for every test",
      example: EXAMPLE_ID,
    }),
    ok: z.boolean().openapi({ description: "Whether the receiver answered 2xx", example: true }),
    statusCode: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "HTTP status code of the receiver's answer; null when it did not answer", example: 200 }),
    response: z.string().nullable().openapi({
      description: "The body of the receiver's answer (first 4,096 characters)",
      example: '{"message":"ok"}',
    }),
    requestBody: z.string().nullable().openapi({
      description: "The body that was sent; null when it could not be built",
      example: '{"id":"0190a5c2-...","type":"outgoing"}',
    }),
    durationMs: z.number().int().nullable().openapi({ description: "Time until the receiver answered", example: 84 }),
    error: z.string().nullable().openapi({
      description: "Why it failed (refused URL, time-out, non-2xx answer, template error), else null",
      example: null,
    }),
    sentAt: Timestamp.openapi({ description: "When it was sent (ms since the epoch)" }),
  })
  .openapi("WebhookTestSendResult");

const route = createRoute({
  method: "post",
  path: "/inboxes/{inboxId}/webhooks/{webhookId}/send-test/",
  tags: [WEBHOOKS_TAG],
  summary: "Send a test event to a webhook now",
  description:
    "Needs `webhook.manage`. Pushes a made-up message event (sample contact and conversation, this inbox, the " +
    "webhook's direction, " +
    "`metadata.test: true`, a new id each time) with the webhook's current settings: preset or custom " +
    "template, method, headers, secret " +
    "and signature, SSRF rules and time-out; it waits for the receiver and returns what it answered. A " +
    "receiver's failure is a 200 with " +
    "`ok: false` and the reason. Nothing is stored: a test is not a delivery record, is never retried, and " +
    "does not count towards " +
    "disabling the webhook. A disabled webhook can be tested (to check a receiver before enabling it again). No body.",
  request: { params: WebhookParams },
  responses: { 200: json(TestSendResult, "What the receiver answered"), ...errorResponses(403, 404) },
});

export const registerSendTestWebhookEvent = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "webhook.manage");
    const { inboxId, webhookId } = c.req.valid("param");
    const view = await getWebhook(c.var.db, access.organizationId, inboxId, webhookId);
    const result = await sendTestEvent(c.env, c.var.db, view);
    return c.json({ ...result, sentAt: ms(result.sentAt)! }, 200);
  });
