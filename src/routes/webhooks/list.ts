import { createRoute, z } from "@hono/zod-openapi";
import { and, count, desc, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { WEBHOOK_DIRECTIONS, webhooks } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import { requireInbox, selectWebhooks } from "../../services/webhooks/config";
import { webhookRecord } from "../../services/records/webhooks";
import { InboxParams, WEBHOOKS_TAG, WebhookSchema } from "./schema";

const ListQuery = PageQuery.extend({
  direction: z
    .enum(WEBHOOK_DIRECTIONS)
    .optional()
    .openapi({ description: "Only webhooks of this direction", example: "outgoing" }),
});

const route = createRoute({
  method: "get",
  path: "/inboxes/{inboxId}/webhooks/",
  tags: [WEBHOOKS_TAG],
  summary: "List an inbox's webhooks",
  description: "Needs `webhook.manage`. Newest first.",
  request: { params: InboxParams, query: ListQuery },
  responses: { 200: json(pageOf(WebhookSchema, "WebhookPage"), "Page of webhooks"), ...errorResponses(400, 403, 404) },
});

export const registerListWebhooks = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "webhook.manage");
    const inbox = await requireInbox(c.var.db, access.organizationId, c.req.valid("param").inboxId);
    const q = c.req.valid("query");
    const p = pageParams(q);
    const where = and(
      eq(webhooks.organizationId, access.organizationId),
      eq(webhooks.inboxId, inbox.id),
      q.direction ? eq(webhooks.direction, q.direction) : undefined,
    );
    const [[{ n }], rows] = await Promise.all([
      c.var.db.select({ n: count() }).from(webhooks).where(where),
      selectWebhooks(c.var.db)
        .where(where)
        .orderBy(desc(webhooks.createdAt), desc(webhooks.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    const results = await Promise.all(rows.map((row) => webhookRecord(row, c.env)));
    return c.json(pageResponse(c, p, n, results), 200);
  });
