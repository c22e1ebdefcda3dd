import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { listWebhooks, requireInbox } from "../../services/webhooks/config";
import { webhookRecord, WebhookSchema } from "../../services/records/webhooks";
import { InboxParams, WEBHOOKS_TAG, WebhookListQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/inboxes/{inboxId}/webhooks/",
  tags: [WEBHOOKS_TAG],
  summary: "List an inbox's webhooks",
  description: "Needs `webhook.manage`. Newest first.",
  request: { params: InboxParams, query: WebhookListQuery },
  responses: { 200: json(pageOf(WebhookSchema, "WebhookPage"), "Page of webhooks"), ...errorResponses(400, 403, 404) },
});

export const registerListWebhooks = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "webhook.manage");
    const inbox = await requireInbox(c.var.db, access.organizationId, c.req.valid("param").inboxId);
    const q = c.req.valid("query");
    const p = pageParams(q);
    const page = await listWebhooks(c.var.db, access.organizationId, inbox.id, q.direction, p);
    const results = await Promise.all(page.items.map((row) => webhookRecord(row, c.env)));
    return c.json(pageResponse(c, p, page.count, results), 200);
  });
