import { z } from "@hono/zod-openapi";
import { uuidParam } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { WEBHOOK_DIRECTIONS } from "../../services/records/webhooks";

export const WEBHOOKS_TAG = "Webhooks";
export const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const InboxParams = z.object({ inboxId: uuidParam("inboxId", "Inbox id") });
export const WebhookParams = InboxParams.extend({ webhookId: uuidParam("webhookId", "Webhook id") });

export const WebhookListQuery = PageQuery.extend({
  direction: z
    .enum(WEBHOOK_DIRECTIONS)
    .optional()
    .openapi({ description: "Only webhooks of this direction", example: "outgoing" }),
});
