import { eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { models } from "../../db/schema";
import { chatModelFor, complete } from "../llm";
import { lexicalScores, type EvaluationInput, type Scores } from "./metrics";

const METRICS = [
  "faithfulness",
  "answerRelevancy",
  "contextPrecision",
  "contextRecall",
  "answerCorrectness",
  "answerSimilarity",
] as const;
/** What is measured against the reference answer: without one, nothing (docs/decisions.md, evaluation). */
const REFERENCE_METRICS = ["contextRecall", "answerCorrectness", "answerSimilarity"] as const;

const PROMPT =
  `You evaluate a question-answering assistant with the RAGAS metrics. Score each from 0 to 1:
faithfulness (the answer's claims are supported by the contexts), answerRelevancy (the answer addresses the question),
contextPrecision (relevant contexts are ranked first), contextRecall (the contexts cover the reference answer),
answerCorrectness (the answer agrees with the reference answer), ` +
  `answerSimilarity (the answer means what the reference means).
Use null for contextRecall, answerCorrectness and answerSimilarity when there is no reference answer.
Reply with one JSON object with exactly those six keys and nothing else.`;

/**
 * Scores of one answer. `EVALUATION_MODEL` (a model id) names the judge; without one, or when it is
 * the local model, the deterministic approximations answer (src/services/evaluation/metrics.ts). A
 * judge's answer that is not the expected JSON falls back to them metric by metric. Without a reference answer, the
 * metrics needing one are null.
 */
export async function scoreAnswer(env: Bindings, db: Db, input: EvaluationInput): Promise<Scores> {
  const lexical = lexicalScores(input);
  const id = env.EVALUATION_MODEL;
  if (!id) return lexical;
  const [row] = await db.select().from(models).where(eq(models.id, id));
  if (!row || row.provider === "local") return lexical;
  const model = await chatModelFor(env, row);
  const body = JSON.stringify({
    question: input.question,
    answer: input.answer,
    contexts: input.contexts,
    reference: input.reference ?? null,
  });
  const { content } = await complete(model, {
    messages: [
      { role: "system", content: PROMPT },
      { role: "user", content: body },
    ],
    temperature: 0,
  });
  let judged: Record<string, unknown> = {};
  try {
    judged = JSON.parse(/\{[\s\S]*\}/.exec(content)?.[0] ?? "{}") as Record<string, unknown>;
  } catch {
    judged = {};
  }
  const out = { ...lexical };
  for (const m of METRICS) {
    const v = judged[m];
    if (typeof v === "number" && Number.isFinite(v)) out[m] = Math.min(1, Math.max(0, v));
  }
  // The prompt asks for null there, but a judge may score them anyway (against what it guesses the answer should be).
  if (!input.reference?.trim()) for (const m of REFERENCE_METRICS) out[m] = null;
  return out;
}
