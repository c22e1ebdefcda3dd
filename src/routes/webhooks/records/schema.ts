import { z } from "@hono/zod-openapi";
import { uuidParam } from "../../../lib/openapi";
import { PageQuery, pageOf } from "../../../lib/pagination";
import { DELIVERY_STATUSES, WebhookDeliverySchema } from "../../../services/records/webhook-deliveries";
import { EXAMPLE_ID, WebhookParams } from "../schema";

export const RecordParams = WebhookParams.extend({ recordId: uuidParam("recordId", "Webhook record (delivery) id") });
export const ChatbotParams = z.object({ chatbotPk: uuidParam("chatbotPk", "Assistant id") });
export const ChatbotRecordParams = ChatbotParams.extend({
  recordId: uuidParam("recordId", "Webhook record (delivery) id"),
});

const date = (description: string) =>
  z.iso.date({ error: "A day as YYYY-MM-DD (UTC)" }).optional().openapi({ description, example: "2026-01-31" });

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

export const RecordPage = pageOf(WebhookDeliverySchema, "WebhookRecordPage");
