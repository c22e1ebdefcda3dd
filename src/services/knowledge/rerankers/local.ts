import { isStopword, stem, tokenize } from "../embeddings/local";
import type { Reranker } from "./types";

/**
 * The built-in local reranker: deterministic, offline. A document's score is how much of the
 * query it covers, each query term weighted by its rarity among the candidates (a term every
 * candidate has cannot tell them apart) and counted as BM25 counts it (repeats saturate, long
 * documents are discounted), plus bonuses when query terms appear side by side as in
 * the query (a phrase is stronger evidence than scattered words) and for shared CJK character
 * pairs, squashed into 0..1.
 */
export const localReranker: Reranker = {
  async rerank(query: string, documents: string[]): Promise<number[]> {
    return rerankLocally(query, documents);
  },
};

const ADJACENT_BONUS = 0.3;
const PHRASE_BONUS = 0.2;
const CJK_PAIR_BONUS = 0.2;
/** raw 1 (full coverage, no bonus) -> 0.78; raw 1.7 (everything) -> 0.92; raw 0 -> 0. */
const STEEPNESS = 1.5;
const BM25_K1 = 1.2;
const BM25_B = 0.75;
const MAX_QUERY_TERM_FREQUENCY = 3;

interface Analysed {
  /** Content terms in text order: stemmed words, and CJK characters. */
  sequence: string[];
  /** Every term: the sequence's, plus CJK character pairs. */
  terms: Set<string>;
  /** How often each term occurs. */
  counts: Map<string, number>;
  /** Neighbouring pairs of `sequence`, as "a b". */
  pairs: Set<string>;
  cjkPairs: Set<string>;
}

/** Scores in the documents' order. */
export function rerankLocally(query: string, documents: string[]): number[] {
  const q = analyse(query);
  const queryTerms = [...q.terms];
  if (queryTerms.length === 0 || documents.length === 0) return documents.map(() => 0);
  const docs = documents.map((text) => scanDocument(text, q));

  // Smoothed IDF over the candidates, floored at 1 so that a term all of them share still counts
  // towards coverage (the candidates were retrieved for it) but no longer separates them.
  const n = docs.length;
  const idf = new Map(
    queryTerms.map((t) => [t, 1 + Math.log((n + 1) / (docs.filter((d) => d.counts.has(t)).length + 1))]),
  );
  // A term the question repeats weighs as often (at most 3), as in the keyword search: long questions name their
  // subject more than once.
  const weight = new Map(
    queryTerms.map((t) => [t, Math.min(MAX_QUERY_TERM_FREQUENCY, q.counts.get(t) ?? 1) * idf.get(t)!]),
  );
  const total = queryTerms.reduce((s, t) => s + weight.get(t)!, 0);
  const averageLength = docs.reduce((s, d) => s + d.length, 0) / n || 1;

  return docs.map((d) => {
    // BM25's term-frequency saturation and length normalization, scaled so one occurrence in a
    // document of average length counts 1.
    const lengthNorm = 1 - BM25_B + (BM25_B * d.length) / averageLength;
    const tfWeight = (tf: number) =>
      (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * lengthNorm) / ((BM25_K1 + 1) / (1 + BM25_K1));
    const coverage =
      queryTerms.reduce((s, t) => s + (d.counts.get(t) ? weight.get(t)! * tfWeight(d.counts.get(t)!) : 0), 0) / total;
    const adjacent = q.pairs.size ? d.pairs / q.pairs.size : 0;
    const exact = d.exact ? 1 : 0;
    const cjk = q.cjkPairs.size ? d.cjkPairs / q.cjkPairs.size : 0;
    const raw = coverage + ADJACENT_BONUS * adjacent + PHRASE_BONUS * exact + CJK_PAIR_BONUS * cjk;
    return 1 - Math.exp(-STEEPNESS * raw);
  });
}

/** What scoring needs of a document, against one query: counted in one pass, building no sets of its own. */
interface Scanned {
  /** Content terms in the document. */
  length: number;
  /** How often each of the query's terms occurs (query terms only). */
  counts: Map<string, number>;
  /** Distinct query pairs (neighbouring content terms) the document has. */
  pairs: number;
  /** Whether the query's whole content sequence (two terms or more) occurs in it. */
  exact: boolean;
  /** Distinct query CJK character pairs the document has. */
  cjkPairs: number;
}

/** The document analysed as `analyse` does, keeping only what concerns the query's terms. */
function scanDocument(text: string, q: Analysed): Scanned {
  const terms: string[] = [];
  const stops: boolean[] = [];
  const counts = new Map<string, number>();
  const cjkFound = new Set<string>();
  for (const token of tokenize(text)) {
    if (!token.cjk) {
      terms.push(stem(token.text));
      stops.push(isStopword(token.text));
      continue;
    }
    const chars = [...token.text];
    chars.forEach((c, i) => {
      terms.push(c);
      stops.push(isStopword(c));
      if (
        q.cjkPairs.size &&
        i + 1 < chars.length &&
        q.cjkPairs.has(c + chars[i + 1]) &&
        !(isStopword(c) && isStopword(chars[i + 1]))
      )
        cjkFound.add(c + chars[i + 1]);
    });
  }
  // A text made only of stopwords still has to be ranked by something.
  const sequence = stops.includes(false) ? terms.filter((_, i) => !stops[i]) : terms;
  const pairsFound = new Set<string>();
  const first = q.sequence[0];
  let exact = false;
  for (let i = 0; i < sequence.length; i++) {
    const t = sequence[i];
    if (!q.terms.has(t)) continue;
    counts.set(t, (counts.get(t) ?? 0) + 1);
    if (i + 1 < sequence.length && q.terms.has(sequence[i + 1])) {
      const pair = `${t} ${sequence[i + 1]}`;
      if (q.pairs.has(pair)) pairsFound.add(pair);
    }
    if (!exact && q.sequence.length > 1 && t === first && i + q.sequence.length <= sequence.length)
      exact = q.sequence.every((x, k) => sequence[i + k] === x);
  }
  for (const pair of cjkFound) counts.set(pair, 1);
  return { length: sequence.length, counts, pairs: pairsFound.size, exact, cjkPairs: cjkFound.size };
}

function analyse(text: string): Analysed {
  const all: { term: string; stop: boolean }[] = [];
  const cjkPairs = new Set<string>();
  for (const token of tokenize(text)) {
    if (!token.cjk) {
      all.push({ term: stem(token.text), stop: isStopword(token.text) });
      continue;
    }
    const chars = [...token.text];
    chars.forEach((c, i) => {
      all.push({ term: c, stop: isStopword(c) });
      // A pair of function characters (怎么, 什么) says as little as each of them.
      if (i + 1 < chars.length && !(isStopword(c) && isStopword(chars[i + 1]))) cjkPairs.add(c + chars[i + 1]);
    });
  }
  // A query made only of stopwords ("what is it") still has to rank by something.
  const content = all.some((t) => !t.stop) ? all.filter((t) => !t.stop) : all;
  const sequence = content.map((t) => t.term);
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < sequence.length; i++) pairs.add(`${sequence[i]} ${sequence[i + 1]}`);
  const counts = new Map<string, number>();
  for (const t of sequence) counts.set(t, (counts.get(t) ?? 0) + 1);
  for (const t of cjkPairs) counts.set(t, (counts.get(t) ?? 0) + 1);
  return { sequence, terms: new Set([...sequence, ...cjkPairs]), counts, pairs, cjkPairs };
}
