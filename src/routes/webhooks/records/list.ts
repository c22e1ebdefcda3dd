import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { pageParams, pageResponse } from "../../../lib/pagination";
import { authorize } from "../../../services/access";
import { getWebhook, listDeliveries } from "../../../services/webhooks/config";
import { WEBHOOKS_TAG, WebhookParams } from "../schema";
import { RecordPage, RecordQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/inboxes/{inboxId}/webhooks/{webhookId}/records/",
  tags: [WEBHOOKS_TAG],
  summary: "List a webhook's delivery records",
  description:
    "Needs `webhook.manage`. One record per attempt to push a message (event): what was sent, the receiver's " +
    "status and answer, newest first. " +
    "Retries and redeliveries add attempts (`attempt` 2, 3, ...) with the same `eventId`; a pending retry " +
    "shows when it is due (`scheduledAt`). " +
    "Dates are inclusive days in UTC.",
  request: { params: WebhookParams, query: RecordQuery },
  responses: { 200: json(RecordPage, "Page of delivery records"), ...errorResponses(400, 403, 404) },
});

export const registerListWebhookRecords = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "webhook.manage");
    const { inboxId, webhookId } = c.req.valid("param");
    const { webhook } = await getWebhook(c.var.db, access.organizationId, inboxId, webhookId);
    const q = c.req.valid("query");
    const p = pageParams(q);
    const scope = { webhookId: webhook.id };
    const page = await listDeliveries(c.env, c.var.db, access.organizationId, scope, q, p);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
