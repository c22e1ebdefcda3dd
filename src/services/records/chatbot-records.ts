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

/** CONTRACT section 13: one answered (or failed) question of an assistant. */
export interface ChatbotRecord {
  id: string;
  inputMessage: string;
  condenseMessage: string | null;
  outputMessage: string | null;
  context: string[];
  replyTime: number | null;
  createdAt: string;
  error: string | null;
  conversation: string;
  contact: { id: string; name: string } | null;
  evaluationStatus?: "pending" | "done" | "failed" | null;
  faithfulness?: number | null;
  answerRelevancy?: number | null;
  contextPrecision?: number | null;
  answerCorrectness?: number | null;
  answerSimilarity?: number | null;
  contextRecall?: number | null;
  faithfulnessDisplay?: string;
  answerRelevancyDisplay?: string;
  contextPrecisionDisplay?: string;
  answerCorrectnessDisplay?: string;
  answerSimilarityDisplay?: string;
  contextRecallDisplay?: string;
}

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
