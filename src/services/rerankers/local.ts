import { isStopword, stem, tokenize } from "../embeddings/local";
import type { Reranker } from "./types";

/**
 * The built-in local reranker: deterministic, offline. A document's score is how much of the
 * query it covers, each query term weighted by its rarity among the candidates (a term every
 * candidate has cannot tell them apart), plus bonuses when query terms appear side by side as in
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

interface Analysed {
  /** Content terms in text order: stemmed words, and CJK characters. */
  sequence: string[];
  /** Every term: the sequence's, plus CJK character pairs. */
  terms: Set<string>;
  /** Neighbouring pairs of `sequence`, as "a b". */
  pairs: Set<string>;
  cjkPairs: Set<string>;
}

/** Scores in the documents' order. */
export function rerankLocally(query: string, documents: string[]): number[] {
  const q = analyse(query);
  const queryTerms = [...q.terms];
  if (queryTerms.length === 0 || documents.length === 0) return documents.map(() => 0);
  const docs = documents.map(analyse);

  // Smoothed IDF over the candidates, floored at 1 so that a term all of them share still counts
  // towards coverage (the candidates were retrieved for it) but no longer separates them.
  const n = docs.length;
  const idf = new Map(queryTerms.map((t) => [t, 1 + Math.log((n + 1) / (docs.filter((d) => d.terms.has(t)).length + 1))]));
  const total = queryTerms.reduce((s, t) => s + idf.get(t)!, 0);
  const phrase = q.sequence.join(" ");

  return docs.map((d) => {
    const coverage = queryTerms.reduce((s, t) => s + (d.terms.has(t) ? idf.get(t)! : 0), 0) / total;
    const adjacent = share(q.pairs, d.pairs);
    const exact = q.sequence.length > 1 && ` ${d.sequence.join(" ")} `.includes(` ${phrase} `) ? 1 : 0;
    const cjk = share(q.cjkPairs, d.cjkPairs);
    const raw = coverage + ADJACENT_BONUS * adjacent + PHRASE_BONUS * exact + CJK_PAIR_BONUS * cjk;
    return 1 - Math.exp(-STEEPNESS * raw);
  });
}

const share = (wanted: Set<string>, present: Set<string>) => {
  if (wanted.size === 0) return 0;
  let hits = 0;
  for (const x of wanted) if (present.has(x)) hits++;
  return hits / wanted.size;
};

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
      if (i + 1 < chars.length) cjkPairs.add(c + chars[i + 1]);
    });
  }
  // A query made only of stopwords ("what is it") still has to rank by something.
  const content = all.some((t) => !t.stop) ? all.filter((t) => !t.stop) : all;
  const sequence = content.map((t) => t.term);
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < sequence.length; i++) pairs.add(`${sequence[i]} ${sequence[i + 1]}`);
  return { sequence, terms: new Set([...sequence, ...cjkPairs]), pairs, cjkPairs };
}
