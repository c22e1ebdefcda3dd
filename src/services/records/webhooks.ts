import { z } from "@hono/zod-openapi";
import type { Bindings } from "../../env";
import { WEBHOOK_DIRECTIONS, WEBHOOK_METHODS, WEBHOOK_PRESETS } from "../../db/schema";
import { IdName, NameField, Timestamp, Timestamps } from "../../lib/openapi";
import { looksMasked } from "../../lib/masked-headers";
import { ms, timestampsOf } from "../../lib/time";
import { secretTokenPreview, type WebhookView } from "../webhooks/config";
import { shownHeaders } from "../webhooks/headers";

// The route schemas take this enum from here (routes do not import db/schema).
export { WEBHOOK_DIRECTIONS };

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
    headers: z.record(z.string(), z.string()).openapi({
      description:
        "Custom headers, names as written, each value masked (write-only, as the secret token is): sent back as " +
        "shown, a value keeps the stored one",
      example: { Authorization: "…t123", "X-Team": "••••" },
    }),
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
    headers: shownHeaders(w),
    templatePreset: w.templatePreset,
    customTemplate: w.customTemplate,
    hasSecretToken: !!w.secretTokenSealed,
    secretTokenPreview: await secretTokenPreview(w, env),
    ...timestampsOf(w),
  };
}

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").

/** RFC 9110 token: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII, spaces and tabs: a value `fetch` sends as is (no line breaks, nothing outside Latin-1). */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/** Set by the service on every delivery; a custom value would be overwritten or break the request. */
const RESERVED_HEADERS = new Set([
  "content-type",
  "content-length",
  "host",
  "transfer-encoding",
  "user-agent",
  "x-webhook-secret",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
]);
const MAX_HEADERS = 50;

/** Why the custom headers cannot be sent, or null. */
function headersProblem(headers: Record<string, string>): string | null {
  const names = Object.keys(headers);
  if (names.length > MAX_HEADERS) return `At most ${MAX_HEADERS} headers.`;
  const seen = new Set<string>();
  for (const name of names) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name) || name.length > 100) return `"${name.slice(0, 100)}" is not a valid header name.`;
    if (RESERVED_HEADERS.has(lower)) return `"${name}" is set by the service and cannot be overridden.`;
    if (seen.has(lower)) return `"${name}" is given twice (header names are case-insensitive).`;
    seen.add(lower);
    const value = headers[name];
    // A masked value sent back (as records show it) is the stored one's: the service resolves it.
    if (!looksMasked(value) && (!HEADER_VALUE.test(value) || value.length > 4000))
      return `The value of "${name}" must be at most 4,000 printable ASCII characters, without line breaks.`;
  }
  return null;
}

/** Body of POST and PUT; PATCH takes any subset. Fields left out of PUT or PATCH stay as they are. */
export const WebhookWrite = z
  .object({
    name: NameField("Display name", "CRM sync"),
    direction: WebhookDirection,
    url: z.string().trim().min(1).max(2000).openapi({
      description: "http(s) endpoint; private networks and internal addresses are refused (SSRF protection)",
      example: "https://hooks.example.com/assistant",
    }),
    isEnabled: z
      .boolean()
      .optional()
      .openapi({
        description:
          "A disabled webhook sends nothing but keeps its configuration (default true); true re-enables one the " +
          "service disabled",
        example: true,
      }),
    method: z
      .enum(WEBHOOK_METHODS)
      .optional()
      .openapi({ description: "HTTP method of the push (default POST)", example: "POST" }),
    headers: z
      .record(z.string(), z.string())
      .nullable()
      .optional()
      .superRefine((headers, ctx) => {
        const problem = headers ? headersProblem(headers) : null;
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .openapi({
        description:
          "Custom headers sent with every push, names kept as written (not past a redirect to another host). " +
          "Values are write-only: records show them masked, and a masked value sent back keeps the stored one " +
          "(dropped when `url` moves to another server). " +
          "Content-Type, Content-Length, Host, " +
          "Transfer-Encoding, User-Agent, " +
          "X-Webhook-Secret and the webhook-id/-timestamp/-signature headers are set by the service and " +
          "cannot be given.",
        example: { Authorization: "Bearer 123" },
      }),
    templatePreset: z
      .enum(WEBHOOK_PRESETS)
      .optional()
      .openapi({
        description:
          "Payload format: `service_standard` (default), `genesys_cloud`, `custom` (customTemplate) or `legacy` " +
          "(the older format)",
        example: "service_standard",
      }),
    customTemplate: z.string().max(20_000).nullable().optional().openapi({
      description:
        "Jinja2 template rendering the JSON body; required with the `custom` preset, checked with test data on save",
      example: null,
    }),
    retryFailedDeliveries: z
      .boolean()
      .optional()
      .openapi({
        description:
          "Retry failed deliveries automatically, 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h and 24 h after " +
          "each failure (about 45 hours in all). " +
          "Default false: a failure is recorded and not retried (the spec's delivery rule 3)",
        example: false,
      }),
    conversationEvents: z
      .boolean()
      .optional()
      .openapi({
        description:
          "Also send the conversation's lifecycle events (handoff, takeover, assignment, resolve) as " +
          "`conversation.updated` payloads (docs/reference.md, " +
          '"Lifecycle events"). Default false: message events only. Not available with `direction: receive` ' +
          "or the `genesys_cloud` preset",
        example: false,
      }),
    secretToken: z
      .string()
      .min(1)
      .max(500)
      .regex(
        /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/,
        "Printable ASCII characters, without leading or trailing spaces.",
      )
      .nullable()
      .optional()
      .openapi({
        description:
          "Write-only, encrypted at rest: sent as X-Webhook-Secret, and the key of `webhook-signature` " +
          "(HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the token's UTF-8 bytes, not " +
          "base64-decoded; a Standard Webhooks library takes `whsec_` + base64 of the token: docs/reference.md, " +
          '"Webhooks"); null removes it. Left out where `url` moves to another server, it is removed too',
        example: "my-shared-secret",
      }),
  })
  .openapi("WebhookWrite");
export const WebhookPatch = WebhookWrite.partial().openapi("WebhookPatch");
/** PUT and PATCH bodies as the service receives them; PUT's is a PATCH with every field. */
export type WebhookInput = z.output<typeof WebhookPatch>;
