import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { Timestamp, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { dataParts } from "../../services/shards/parts";
import { getWebhook } from "../../services/webhooks/config";
import { redeliverFailed } from "../../services/webhooks/redelivery";
import { WEBHOOKS_TAG, WebhookParams } from "./schema";

const SINCE_FORMS =
  "an ISO 8601 time with its offset (2026-01-31T08:00:00Z), a day in UTC (2026-01-31) or milliseconds since " +
  "the epoch (1769846400000)";

/** `since` in any of its forms -> epoch ms, or undefined when it is none of them. */
function parseSince(value: string): number | undefined {
  if (/^\d{1,15}$/.test(value)) return Number(value);
  if (/^\d{4}-\d\d-\d\d$/.test(value) && z.iso.date().safeParse(value).success) return Date.parse(`${value}T00:00:00Z`);
  if (z.iso.datetime({ offset: true }).safeParse(value).success) return Date.parse(value);
  return undefined;
}

const RedeliverFailedBody = z
  .object({
    since: z
      .string()
      .max(40)
      .optional()
      .superRefine((v, ctx) => {
        if (v !== undefined && parseSince(v) === undefined)
          ctx.addIssue({ code: "custom", message: `Must be ${SINCE_FORMS}.` });
      })
      .openapi({
        description:
          `Only events that first happened at or after this time: ${SINCE_FORMS}. ` + "Absent: every failed event",
        example: "2026-01-31T08:00:00Z",
      }),
  })
  .openapi("RedeliverFailedWebhookEvents");

const RedeliverFailedResult = z
  .object({
    count: z.number().int().openapi({ description: "Events given a new attempt, now queued", example: 42 }),
    since: Timestamp.nullable().openapi({
      description: "`since` as read (ms since the epoch); null when absent",
      example: "1769846400000",
    }),
  })
  .openapi("RedeliverFailedWebhookEventsResult");

const route = createRoute({
  method: "post",
  path: "/inboxes/{inboxId}/webhooks/{webhookId}/redeliver-failed/",
  tags: [WEBHOOKS_TAG],
  summary: "Send again every event whose deliveries all failed",
  description:
    "Needs `webhook.manage`. For operators who keep automatic retries off: after an outage, one call gives " +
    "each event of this webhook " +
    "none of whose attempts succeeded (optionally since a time) a new attempt, queued at once, with the same " +
    "message id so receivers " +
    "can deduplicate. Events with an attempt still pending (a retry on its schedule) are left to it. The body " +
    "may be omitted. " +
    "A disabled webhook is a 409: enable it first.",
  request: { params: WebhookParams, body: { ...jsonBody(RedeliverFailedBody).body, required: false } },
  responses: {
    202: json(RedeliverFailedResult, "How many events were queued again"),
    ...errorResponses(400, 403, 404, 409),
  },
});

export const registerRedeliverFailedWebhookEvents = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "webhook.manage");
    const { inboxId, webhookId } = c.req.valid("param");
    const { webhook } = await getWebhook(c.var.db, access.organizationId, inboxId, webhookId);
    const raw = c.req.valid("json")?.since;
    const since = raw === undefined ? undefined : parseSince(raw);
    const parts = await dataParts(c.env, access.organizationId);
    const count = await redeliverFailed(c.env, parts, access.organizationId, webhook, since, c.var.requestId);
    return c.json({ count, since: since === undefined ? null : String(since) }, 202);
  });
