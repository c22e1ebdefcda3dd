import { z } from "@hono/zod-openapi";
import { DELIVERY_STATUSES } from "../../db/schema";
import { IdName, Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { DeliveryRow, DeliveryView } from "../webhooks/config";

// The route schemas take this enum from here (routes do not import db/schema).
export { DELIVERY_STATUSES };

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

/** Response bodies are kept short; the consumer already stores at most this much. */
const RESPONSE_BODY_SHOWN = 4_096;

export const WebhookDeliverySchema = z
  .object({
    id: z.string().openapi({ description: "The delivery's id", example: EXAMPLE_ID }),
    webhook: IdName.openapi({
      description: "The webhook the message was pushed to",
      example: { id: EXAMPLE_ID, name: "CRM sync" },
    }),
    // A union, not `.nullable()`, so that the OpenAPI document shows the null.
    chatbot: z.union([IdName, z.null()]).openapi({
      description: "The assistant whose conversation the message belongs to; null when unknown",
      example: { id: EXAMPLE_ID, name: "Support assistant" },
    }),
    message: z.string().nullable().openapi({
      description:
        "Message id; the same on every (re)delivery, so receivers can deduplicate; null for a lifecycle event",
      example: EXAMPLE_ID,
    }),
    event: z.enum(["incoming", "outgoing", "conversation.updated"]).openapi({
      description:
        "Which event was pushed: a message (`incoming`, `outgoing`) or a conversation's lifecycle change " +
        "(`conversation.updated`, webhooks with `conversationEvents`)",
      example: "outgoing",
    }),
    status: z
      .enum(DELIVERY_STATUSES)
      .openapi({ description: "pending, sending, success (2xx) or failure", example: "success" }),
    attempt: z.number().int().openapi({
      description: "Which attempt of the event this is: 1, then 2, 3, ... for retries and redeliveries",
      example: 1,
    }),
    eventId: z.string().openapi({
      description:
        "The id the payload carries (`id`: the message's, or the lifecycle event's), the same on every " +
        "attempt, so receivers drop duplicates",
      example: EXAMPLE_ID,
    }),
    scheduledAt: Timestamp.openapi({
      description: "When the attempt is (or was) due; a pending retry waits until then (ms since the epoch)",
      example: "1767225610000",
    }),
    attempts: z.number().int().openapi({
      description: "Times this attempt was sent: 0 while pending, then 1 (2 only if a consumer died mid-send)",
      example: 1,
    }),
    url: z
      .string()
      .nullable()
      .openapi({ description: "Where it was sent", example: "https://hooks.example.com/assistant" }),
    requestBody: z
      .string()
      .nullable()
      .openapi({ description: "The body that was sent", example: '{"id":"0190a5c2-..."}' }),
    response: z.string().nullable().openapi({
      description: "The body of the receiver's answer (first 4,096 characters); null before an answer",
      example: '{"message":"ok"}',
    }),
    statusCode: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "HTTP status code of the receiver's answer; null before an answer", example: 200 }),
    responseStatus: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "HTTP status of the receiver's answer (the same as `statusCode`)", example: 200 }),
    responseBody: z.string().nullable().openapi({
      description: "The receiver's answer, first 4,096 characters (the same as `response`)",
      example: '{"message":"ok"}',
    }),
    durationMs: z.number().int().nullable().openapi({ description: "Time until the receiver answered", example: 84 }),
    error: z.string().nullable().openapi({ description: "Why it failed", example: null }),
    createdAt: Timestamp,
    deliveredAt: Timestamp.nullable().openapi({
      description: "When the last attempt finished (ms since the epoch)",
      example: "1767225600084",
    }),
  })
  .openapi("WebhookRecord");

/**
 * A webhook delivery record: one attempt of one event. `url`, `requestBody`, `response`,
 * `statusCode`, `createdAt`, `chatbot`, `attempt` and `eventId` are the product's names (CONTRACT
 * section 8); `responseStatus` and `responseBody` are the older names of the same values, kept for
 * existing clients.
 */
export type WebhookDeliveryRecord = z.infer<typeof WebhookDeliverySchema>;

/** The id the payload carries: the message's, or the lifecycle event's (every delivery has one of them). */
export function deliveryEventId(d: Pick<DeliveryRow, "id" | "messageId" | "conversationEventId">): string {
  const id = d.messageId ?? d.conversationEventId;
  if (!id) throw new Error(`webhook delivery ${d.id} names neither a message nor a conversation event`);
  return id;
}

export function deliveryRecord({ delivery: d, webhook, chatbot }: DeliveryView): WebhookDeliveryRecord {
  const response = d.responseBody === null ? null : d.responseBody.slice(0, RESPONSE_BODY_SHOWN);
  return {
    id: d.id,
    webhook,
    chatbot: chatbot?.id ? chatbot : null,
    message: d.messageId,
    event: d.event,
    status: d.status,
    attempt: d.attempt,
    eventId: deliveryEventId(d),
    scheduledAt: ms(d.scheduledAt)!,
    attempts: d.attempts,
    url: d.url,
    requestBody: d.requestBody,
    response,
    statusCode: d.responseStatus,
    responseStatus: d.responseStatus,
    responseBody: response,
    durationMs: d.durationMs,
    error: d.error,
    createdAt: ms(d.createdAt)!,
    deliveredAt: ms(d.deliveredAt),
  };
}
