import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { webhookDeliveries } from "../../../db/schema";
import { currentAccess, requirePermission } from "../../../services/access";
import { getDelivery, getWebhook } from "../../../services/webhooks/config";
import { WEBHOOKS_TAG } from "../schema";
import { RecordParams, RecordSchema, recordRecord } from "./schema";

const route = createRoute({
  method: "get",
  path: "/inboxes/{inboxId}/webhooks/{webhookId}/records/{recordId}/",
  tags: [WEBHOOKS_TAG],
  summary: "Get a delivery record of a webhook",
  description: "Needs `webhook.manage`.",
  request: { params: RecordParams },
  responses: { 200: json(RecordSchema, "The delivery record"), ...errorResponses(403, 404) },
});

export const registerGetWebhookRecord = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "webhook.manage");
    const { inboxId, webhookId, recordId } = c.req.valid("param");
    const { webhook } = await getWebhook(c.var.db, access.organizationId, inboxId, webhookId);
    const record = await getDelivery(c.var.db, access.organizationId, recordId, eq(webhookDeliveries.webhookId, webhook.id));
    return c.json(recordRecord(record), 200);
  });
