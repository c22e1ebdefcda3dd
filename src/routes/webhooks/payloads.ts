import { z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import {
  WebhookConversationEventSchema,
  WebhookLegacyMessageSchema,
  WebhookMessageSchema,
} from "../../services/records/webhook-payloads";

const SIGNED =
  "Sent with `Content-Type: application/json`, the webhook's own headers, `X-Webhook-Secret` when it has a " +
  "secret, and the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` " +
  "(`v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed with the secret). ";
const ANSWER = {
  200: { description: "Any 2xx within 30 s is a success; anything else a failure (retried when the webhook says so)" },
};

/**
 * What an inbox's outgoing webhooks send, in the document's `webhooks` (OpenAPI 3.1): not endpoints of this API but
 * requests it makes, so a receiver can type them from the same document. The `custom` preset's body is the
 * webhook's own template, and `genesys_cloud`'s is Genesys Cloud's Open Messaging format.
 */
export function registerWebhookPayloads(r: Router) {
  r.openAPIRegistry.registerWebhook({
    method: "post",
    path: "message",
    tags: ["Webhooks"],
    summary: "A message of the inbox",
    description:
      `${SIGNED}Each message of the inbox, once to each enabled webhook of its direction: ` +
      "`WebhookMessage` with the `service_standard` preset (the default), `WebhookLegacyMessage` with `legacy`.",
    request: {
      body: {
        content: { "application/json": { schema: z.union([WebhookMessageSchema, WebhookLegacyMessageSchema]) } },
      },
    },
    responses: ANSWER,
  });
  r.openAPIRegistry.registerWebhook({
    method: "post",
    path: "conversation.updated",
    tags: ["Webhooks"],
    summary: "A conversation's lifecycle change",
    description:
      `${SIGNED}To a webhook with \`conversationEvents: true\`: each change of a conversation's status, progress ` +
      "status, assignee or auto reply, with why.",
    request: { body: { content: { "application/json": { schema: WebhookConversationEventSchema } } } },
    responses: ANSWER,
  });
}
