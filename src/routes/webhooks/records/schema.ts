import { z } from "@hono/zod-openapi";
import { DELIVERY_STATUSES } from "../../../db/schema";
import { IdName, Timestamp, uuidParam } from "../../../lib/openapi";
import { PageQuery, pageOf } from "../../../lib/pagination";
import { EXAMPLE_ID, WebhookParams } from "../schema";

export const RecordParams = WebhookParams.extend({ recordId: uuidParam("recordId", "Webhook record (delivery) id") });
export const ChatbotParams = z.object({ chatbotPk: uuidParam("chatbotPk", "Assistant id") });
export const ChatbotRecordParams = ChatbotParams.extend({
  recordId: uuidParam("recordId", "Webhook record (delivery) id"),
});

const date = (description: string) => z.iso.date().optional().openapi({ description, example: "2026-01-31" });

const RecordFilters = {
  status: z
    .enum([...DELIVERY_STATUSES, "failed"])
    .optional()
    .transform((s) => (s === "failed" ? "failure" : s))
    .openapi({
      description: "pending, sending, success or failure (`failed` works too)",
      example: "failure",
      type: "string",
      enum: [...DELIVERY_STATUSES, "failed"],
    }),
  startDate: date("Created on or after this day (YYYY-MM-DD, UTC)"),
  endDate: date("Created on or before this day (YYYY-MM-DD, UTC)"),
  eventId: z
    .uuid()
    .optional()
    .openapi({ description: "Only the attempts of this event (message id)", example: EXAMPLE_ID }),
};

const datesInOrder = (q: { startDate?: string; endDate?: string }) =>
  !q.startDate || !q.endDate || q.startDate <= q.endDate;
const DATES_OUT_OF_ORDER = { message: "Must not be before startDate.", path: ["endDate"] };

/** Filters of the records of one webhook; `failed` is accepted for `failure`. */
export const RecordQuery = PageQuery.extend(RecordFilters).refine(datesInOrder, DATES_OUT_OF_ORDER);

/** Filters of an assistant's records: those of RecordQuery, and the webhook. */
export const ChatbotRecordQuery = PageQuery.extend({
  ...RecordFilters,
  webhook: z.uuid().optional().openapi({ description: "Only records of this webhook", example: EXAMPLE_ID }),
}).refine(datesInOrder, DATES_OUT_OF_ORDER);

export const RecordSchema = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
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
        "Which event was pushed: a message (`incoming`, `outgoing`) or a conversation's lifecycle change (`conversation.updated`, webhooks with `conversationEvents`)",
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
        "The id the payload carries (`id`: the message's, or the lifecycle event's), the same on every attempt, so receivers drop duplicates",
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

export const RecordPage = pageOf(RecordSchema, "WebhookRecordPage");
