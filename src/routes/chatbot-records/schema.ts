import { z } from "@hono/zod-openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
import { ChatbotRecordSchema } from "../../services/records/chatbot-records";
import { Timezone } from "../statistics/schema";

export const RECORDS_TAG = "Chatbot records";

export const RecordFilterQuery = z.object({
  startDate: z
    .string()
    .openapi({ description: "First day, YYYY-MM-DD (in `timezone`), included", example: "2026-01-01" }),
  endDate: z.string().openapi({ description: "Last day, YYYY-MM-DD (in `timezone`), included", example: "2026-01-31" }),
  userMessage: z
    .string()
    .max(500)
    .optional()
    .openapi({ description: "Only questions containing this text", example: "refund" }),
  botMessage: z
    .string()
    .max(500)
    .optional()
    .openapi({ description: "Only answers containing this text", example: "within 30 days" }),
  timezone: Timezone,
});

export const RecordListQuery = RecordFilterQuery.extend(PageQuery.shape);

export const ChatbotRecordPage = pageOf(ChatbotRecordSchema, "ChatbotRecordPage");
