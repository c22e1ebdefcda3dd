import type { Router } from "../../lib/openapi";
import { registerCreateWebhook } from "./create";
import { registerDeleteWebhook } from "./delete";
import { registerGetWebhook } from "./get";
import { registerListWebhooks } from "./list";
import { registerWebhookRecordRoutes } from "./records";
import { registerRedeliverFailedWebhookEvents } from "./redeliver-failed";
import { registerSendTestWebhookEvent } from "./send-test";
import { registerPatchWebhook, registerReplaceWebhook } from "./update";

/** Outbound webhooks of an inbox (spec "Inbox webhooks") and their delivery records. */
export function registerWebhookRoutes(r: Router) {
  registerListWebhooks(r);
  registerCreateWebhook(r);
  registerGetWebhook(r);
  registerReplaceWebhook(r);
  registerPatchWebhook(r);
  registerDeleteWebhook(r);
  registerRedeliverFailedWebhookEvents(r);
  registerSendTestWebhookEvent(r);
  registerWebhookRecordRoutes(r);
}
