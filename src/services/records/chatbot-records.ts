import { z } from "@hono/zod-openapi";
import { IdName } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { ChatbotRecordView } from "../statistics/records";

export const EVALUATION_METRICS = [
  "faithfulness",
  "answerRelevancy",
  "contextPrecision",
  "answerCorrectness",
  "answerSimilarity",
  "contextRecall",
] as const;
export type EvaluationMetric = (typeof EVALUATION_METRICS)[number];

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
    contact: z
      .union([IdName, z.null()])
      .openapi({ description: "The contact who asked (null for anonymous API conversations)" }),
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

/** CONTRACT section 13: one answered (or failed) question of an assistant. */
export type ChatbotRecord = z.infer<typeof ChatbotRecordSchema>;

/** The passages a reply was given, as text (the stored citationNodes). */
export function contextTexts(nodes: Record<string, unknown>[] | null): string[] {
  return (nodes ?? [])
    .map((n) => (n.node as { text?: unknown } | undefined)?.text)
    .filter((t): t is string => typeof t === "string");
}

/** A score as people read it: "85%", or "-" when not scored (yet). */
export const scoreDisplay = (score: number | null | undefined) =>
  score === null || score === undefined ? "-" : `${Math.round(score * 100)}%`;

export function chatbotRecord({ record: r, contact }: ChatbotRecordView, withEvaluation: boolean): ChatbotRecord {
  const out: ChatbotRecord = {
    id: r.id,
    inputMessage: r.inputMessage,
    condenseMessage: r.condenseMessage,
    outputMessage: r.outputMessage,
    context: contextTexts(r.context),
    replyTime: r.replyMs === null ? null : r.replyMs / 1000,
    createdAt: ms(r.createdAt)!,
    error: r.error,
    conversation: r.conversationId,
    contact: contact?.id ? { id: contact.id, name: contact.name ?? "" } : null,
  };
  if (!withEvaluation) return out;
  out.evaluationStatus = r.evaluationStatus;
  for (const metric of EVALUATION_METRICS) {
    out[metric] = r[metric];
    out[`${metric}Display`] = scoreDisplay(r[metric]);
  }
  return out;
}
