import type { Router } from "../../../lib/openapi";
import { registerGetChatbotWebhookRecord } from "./chatbot-get";
import { registerListChatbotWebhookRecords } from "./chatbot-list";
import { registerGetWebhookRecord } from "./get";
import { registerListWebhookRecords } from "./list";
import { registerRedeliverWebhookRecord } from "./redeliver";

/** Delivery records: per webhook of an inbox, and per assistant across its inboxes' webhooks. */
export function registerWebhookRecordRoutes(r: Router) {
  registerListWebhookRecords(r);
  registerGetWebhookRecord(r);
  registerRedeliverWebhookRecord(r);
  registerListChatbotWebhookRecords(r);
  registerGetChatbotWebhookRecord(r);
}
