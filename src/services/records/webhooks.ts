import { z } from "@hono/zod-openapi";
import type { Bindings } from "../../env";
import { WEBHOOK_DIRECTIONS, WEBHOOK_METHODS, WEBHOOK_PRESETS } from "../../db/schema";
import { IdName, Timestamp, Timestamps } from "../../lib/openapi";
import { ms, timestampsOf } from "../../lib/time";
import { secretTokenPreview, type WebhookView } from "../webhooks/config";

// The route schemas take these enums from here (routes do not import db/schema).
export { WEBHOOK_DIRECTIONS, WEBHOOK_METHODS, WEBHOOK_PRESETS };

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const WebhookDirection = z.enum(WEBHOOK_DIRECTIONS).openapi({
  description:
    "`outgoing`: assistant and agent replies; `incoming`: visitor messages; `receive`: calls from an external platform",
  example: "outgoing",
});

export const WebhookSchema = z
  .object({
    id: z.string().openapi({ description: "The webhook's id", example: EXAMPLE_ID }),
    inbox: IdName.openapi({
      description: "The inbox whose messages are pushed",
      example: { id: EXAMPLE_ID, name: "Website" },
    }),
    name: z.string().openapi({ description: "The webhook's name", example: "CRM sync" }),
    direction: WebhookDirection,
    isEnabled: z.boolean().openapi({
      description: "Whether it sends; a disabled webhook (by you or by the service) keeps its configuration",
      example: true,
    }),
    retryFailedDeliveries: z
      .boolean()
      .openapi({ description: "Whether failed deliveries are retried on the schedule", example: false }),
    conversationEvents: z.boolean().openapi({
      description: "Whether the conversation's lifecycle events are sent too (`conversation.updated`)",
      example: false,
    }),
    disabledAt: Timestamp.nullable().openapi({
      description:
        "When the service disabled the webhook because every delivery failed for 3 days; null otherwise (ms " +
        "since the epoch)",
      example: null,
    }),
    disabledReason: z
      .string()
      .nullable()
      .openapi({ description: "Why the service disabled it, with the last error", example: null }),
    url: z
      .string()
      .openapi({ description: "Where the events are sent", example: "https://hooks.example.com/assistant" }),
    method: z.enum(WEBHOOK_METHODS).openapi({ description: "HTTP method of the push", example: "POST" }),
    headers: z
      .record(z.string(), z.string())
      .openapi({ description: "Custom headers, names as written", example: { Authorization: "Bearer 123" } }),
    templatePreset: z.enum(WEBHOOK_PRESETS).openapi({
      description:
        "Payload format: `service_standard`, `genesys_cloud`, `custom` (customTemplate) or `legacy` (the older format)",
      example: "service_standard",
    }),
    customTemplate: z
      .string()
      .nullable()
      .openapi({ description: "Jinja2 template of the `custom` preset", example: null }),
    hasSecretToken: z
      .boolean()
      .openapi({ description: "Whether a secret token is stored (it is never returned)", example: true }),
    secretTokenPreview: z.string().nullable().openapi({ description: "Masked secret token", example: "my-s…cret" }),
    ...Timestamps,
  })
  .openapi("Webhook");

export type WebhookRecord = z.infer<typeof WebhookSchema>;

export async function webhookRecord(
  { webhook: w, inbox }: WebhookView,
  env: Pick<Bindings, "ENCRYPTION_KEY">,
): Promise<WebhookRecord> {
  return {
    id: w.id,
    inbox,
    name: w.name,
    direction: w.direction,
    isEnabled: w.isEnabled,
    retryFailedDeliveries: w.retryFailedDeliveries,
    conversationEvents: w.conversationEvents,
    disabledAt: ms(w.disabledAt),
    disabledReason: w.disabledReason,
    url: w.url,
    method: w.method,
    headers: w.headers ?? {},
    templatePreset: w.templatePreset,
    customTemplate: w.customTemplate,
    hasSecretToken: !!w.secretTokenSealed,
    secretTokenPreview: await secretTokenPreview(w, env),
    ...timestampsOf(w),
  };
}
