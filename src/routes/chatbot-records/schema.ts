import { z } from "@hono/zod-openapi";
import { IdName } from "../../lib/openapi";
import { PageQuery, pageOf } from "../../lib/pagination";
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

const score = (description: string) =>
  z
    .number()
    .nullable()
    .optional()
    .openapi({
      description: `${description} (0..1); only when the assistant has enableEvaluation, null until scored`,
      example: 0.85,
    });
const display = (name: string) =>
  z
    .string()
    .optional()
    .openapi({ description: `${name} as shown to people ("85%", "-" when not scored)`, example: "85%" });

export const ChatbotRecordSchema = z
  .object({
    id: z.string().openapi({
      description: "The record (the question's message id)",
      example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
    }),
    inputMessage: z.string().openapi({ description: "The question", example: "How do I get a refund?" }),
    condenseMessage: z
      .string()
      .nullable()
      .openapi({ description: "The question as rewritten for retrieval (null when not rewritten)", example: null }),
    outputMessage: z.string().nullable().openapi({
      description: "The answer (null when the reply failed)",
      example: "Refunds are possible within 30 days.",
    }),
    context: z.array(z.string()).openapi({
      description: "The passages the answer was given",
      example: ["Refunds are possible within 30 days of purchase."],
    }),
    replyTime: z.number().nullable().openapi({ description: "Seconds from the question to the answer", example: 1.42 }),
    createdAt: z.string().openapi({ description: "When the question was asked, epoch ms", example: "1767225600000" }),
    error: z.string().nullable().openapi({ description: "Why the reply failed, else null", example: null }),
    conversation: z
      .string()
      .openapi({ description: "Conversation id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    contact: IdName.nullable().openapi({ description: "The contact who asked (null for anonymous API conversations)" }),
    evaluationStatus: z
      .enum(["pending", "done", "failed"])
      .nullable()
      .optional()
      .openapi({ description: "Evaluation progress (with enableEvaluation)", example: "done" }),
    faithfulness: score("Is the answer supported by the context"),
    answerRelevancy: score("Does the answer address the question"),
    contextPrecision: score("Are the retrieved passages relevant, best first"),
    answerCorrectness: score("Agreement with the reference answer (the context without one)"),
    answerSimilarity: score("Semantic similarity to the reference answer (the context without one)"),
    contextRecall: score("How much of the reference the context covers"),
    faithfulnessDisplay: display("faithfulness"),
    answerRelevancyDisplay: display("answerRelevancy"),
    contextPrecisionDisplay: display("contextPrecision"),
    answerCorrectnessDisplay: display("answerCorrectness"),
    answerSimilarityDisplay: display("answerSimilarity"),
    contextRecallDisplay: display("contextRecall"),
  })
  .openapi("ChatbotRecord");

export const ChatbotRecordPage = pageOf(ChatbotRecordSchema, "ChatbotRecordPage");
