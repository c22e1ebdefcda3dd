import { sentences, terms } from "../llm/text";
import { CJK_STOPWORDS } from "../knowledge/retrieval/terms";

/**
 * Deterministic approximations of the RAGAS metrics, offline and without a model: claims are
 * sentences, support is term overlap, similarity is the cosine of term-frequency vectors. They
 * rank answers the way the model-judged metrics do on clear cases (an answer copied from its
 * context is faithful, one unrelated to the question is not relevant) and cost microseconds.
 * Scores are 0..1; a metric that needs what the record lacks (a reference answer, a context) is null.
 */
export interface EvaluationInput {
  question: string;
  answer: string;
  /** The retrieved passages, best first. */
  contexts: string[];
  /** The expected answer, when known (batch QA). */
  reference?: string | null;
}

export interface Scores {
  faithfulness: number | null;
  answerRelevancy: number | null;
  contextPrecision: number | null;
  contextRecall: number | null;
  answerCorrectness: number | null;
  answerSimilarity: number | null;
}

const STOPWORDS = new Set(
  (
    "a an and are as at be but by can could did do does for from had has have how i if in into is it its me " +
    "my no not of on or our " +
    "should so that the their them then there these they this to was we were what when where which who why " +
    "will with would you your said"
  ).split(" "),
);

/** Meaningful terms: stopwords (English, and CJK function characters) dropped. */
export const contentTerms = (text: string) =>
  terms(text).filter((t) => !STOPWORDS.has(t) && !(t.length <= 2 && [...t].every((c) => CJK_STOPWORDS.has(c))));

const round = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;

/** A claim is supported when at least SUPPORT of its terms occur in the evidence. */
const SUPPORT = 0.6;
/** A passage is relevant when it holds at least RELEVANT of the question's (or reference's) terms. */
const RELEVANT = 0.3;

function supportedShare(text: string, evidence: Set<string>): number | null {
  const claims = sentences(text)
    .map(contentTerms)
    .filter((t) => t.length);
  if (!claims.length) return null;
  const supported = claims.filter((t) => t.filter((x) => evidence.has(x)).length / t.length >= SUPPORT).length;
  return supported / claims.length;
}

export function cosine(a: string[], b: string[]): number {
  if (!a.length || !b.length) return 0;
  const fa = new Map<string, number>();
  const fb = new Map<string, number>();
  for (const t of a) fa.set(t, (fa.get(t) ?? 0) + 1);
  for (const t of b) fb.set(t, (fb.get(t) ?? 0) + 1);
  let dot = 0;
  for (const [t, n] of fa) dot += n * (fb.get(t) ?? 0);
  const norm = (f: Map<string, number>) => Math.sqrt([...f.values()].reduce((s, n) => s + n * n, 0));
  return dot / (norm(fa) * norm(fb));
}

function f1(answer: string[], reference: string[]): number {
  const a = new Set(answer);
  const r = new Set(reference);
  if (!a.size || !r.size) return 0;
  const hits = [...a].filter((t) => r.has(t)).length;
  if (!hits) return 0;
  const precision = hits / a.size;
  const recall = hits / r.size;
  return (2 * precision * recall) / (precision + recall);
}

/** Mean precision at each relevant passage's rank (RAGAS context precision); 0 when none is relevant. */
function averagePrecision(target: string[], contexts: string[]): number {
  const wanted = new Set(target);
  if (!wanted.size) return 0;
  let relevant = 0;
  let sum = 0;
  contexts.forEach((c, i) => {
    const have = new Set(contentTerms(c));
    if ([...wanted].filter((t) => have.has(t)).length / wanted.size >= RELEVANT) {
      relevant++;
      sum += relevant / (i + 1);
    }
  });
  return relevant ? sum / relevant : 0;
}

export function lexicalScores({ question, answer, contexts, reference }: EvaluationInput): Scores {
  const evidence = new Set(contexts.flatMap(contentTerms));
  const answerTerms = contentTerms(answer);
  const referenceTerms = reference ? contentTerms(reference) : [];
  const hasReference = referenceTerms.length > 0;
  const similarity = hasReference ? cosine(answerTerms, referenceTerms) : null;
  const faithfulness = contexts.length ? supportedShare(answer, evidence) : answerTerms.length ? 0 : null;
  const recall = hasReference && contexts.length ? supportedShare(reference!, evidence) : hasReference ? 0 : null;
  const score = (x: number | null) => (x === null ? null : round(x));
  return {
    faithfulness: score(faithfulness),
    answerRelevancy: answer.trim() ? round(cosine(contentTerms(question), answerTerms)) : null,
    contextPrecision: contexts.length
      ? round(averagePrecision(hasReference ? referenceTerms : contentTerms(question), contexts))
      : null,
    contextRecall: score(recall),
    answerCorrectness: similarity === null ? null : round(0.75 * f1(answerTerms, referenceTerms) + 0.25 * similarity),
    answerSimilarity: score(similarity),
  };
}
