import { contentTerms } from "../retrieval/terms";
import { terms as wordsOf } from "./text";
import type { Passage } from "./types";

/**
 * The built-in model's extractive answer: for an FAQ, its answer field; for other text, the
 * sentences of the passages that answer, never one that restates the question. A help text says
 * the question first (a heading, an FAQ's question, "Forgot your password?") and answers after it:
 * scored by shared terms alone, the restatement always won, and the model repeated the question
 * (issue 25). So a sentence is scored by the question's terms it holds, weighted by how rare each
 * is among the passages' sentences, leaning towards better-ranked passages; a sentence that
 * restates the question is never chosen, and passes its score on to the sentences that follow it.
 */

const MAX_SENTENCES = 3;
/** A sentence whose words are mostly the question's and hold at least half of them says the question again. */
const RESTATES_OWN = 0.6;
const RESTATES_QUESTION = 0.5;
/** What the best-ranked passage adds to a sentence's score (the n-th adds PRIOR / n): retrieval and rerank saw more than shared terms. */
const PRIOR = 1.5;
/** Share of a restatement's score handed to the next sentence of the passage, and half of that to the one after. */
const FOLLOW = 0.6;

interface Candidate {
  text: string;
  /** Rank of its passage (0: best) and place in it. */
  rank: number;
  position: number;
  terms: Set<string>;
  /** A heading or a question: it may introduce the answer but is never one. */
  asks: boolean;
  score: number;
}

const HEADING = /^\s{0,3}#{1,6}\s+/;
/** A question, or a line that introduces what follows ("Statuses you may see:"). */
const ASKS = /[?？:：]["”’)]*$/u;
const ENDS = /[.!?。！？;；:：,，…]["”’」』)）]*$/u;
const CJK_CHAR = /[\u3400-\u9fff]/u;

/**
 * The sentences of a passage: each line on its own (headings, list items), and within a line the
 * sentences, split after `.`, `!` or `?` followed by a space and a word that does not start in lower
 * case (so "2.4 GHz", "9 a.m. to 6 p.m." and "lumora.com" stay whole), or after a CJK full stop.
 */
function passageSentences(text: string): { text: string; heading: boolean }[] {
  const out: { text: string; heading: boolean }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (HEADING.test(line)) {
      out.push({ text: line.replace(HEADING, "").trim(), heading: true });
      continue;
    }
    // A short line that does not end as a sentence does is a title (parsers drop the `#`).
    if (!ENDS.test(line) && (CJK_CHAR.test(line) ? line.length <= 30 : line.split(/\s+/).length <= 12)) {
      out.push({ text: line, heading: true });
      continue;
    }
    const parts = line.split(/(?<=[.!?]["”’)]*)\s+(?=[^\p{Ll}\s])|(?<=[。！？]["”’」』)）]*)/u).map((s) => s.trim()).filter(Boolean);
    // A list number alone ("1.") belongs to what follows it.
    for (let i = 0; i < parts.length; i++) {
      if (/^\d{1,3}[.)]$/.test(parts[i]) && i + 1 < parts.length) parts[i + 1] = `${parts[i]} ${parts[i + 1]}`;
      else out.push({ text: parts[i], heading: false });
    }
  }
  return out;
}

/**
 * Whether a sentence says the question again (see RESTATES_*), word for word, small words included:
 * "We sell bicycles." answers "Do you sell bicycles?", "Payment methods we accept" restates "What
 * payment methods do you accept?".
 */
function restates(sentence: string, question: string): boolean {
  const said = new Set(wordsOf(sentence));
  const asked = new Set(wordsOf(question));
  if (!said.size || !asked.size) return false;
  let common = 0;
  for (const w of said) if (asked.has(w)) common++;
  return common / said.size >= RESTATES_OWN && common / asked.size >= RESTATES_QUESTION;
}

/** Whether a text shares a meaningful term with the question. */
const touches = (text: string, wanted: Set<string>) => contentTerms(text).some((t) => wanted.has(t));

/** Whether any passage says something about the question (shares a meaningful term with it). */
export const mentions = (question: string, passages: Passage[]) => {
  const wanted = new Set(contentTerms(question));
  return passages.some((p) => touches(p.text, wanted));
};

/** The answer of the FAQ the question is about: the best-ranked passage, when it is an FAQ that touches the question. */
function faqAnswer(passages: Passage[], wanted: Set<string>): string | null {
  const best = [...passages].sort((a, b) => a.index - b.index)[0];
  if (!best?.faq || !touches(`${best.faq.question}\n${best.faq.answer}`, wanted)) return null;
  return best.faq.answer.trim() || null;
}

/** The answer to `question` from the passages (best first by `index`). */
export function extract(question: string, passages: Passage[]): string {
  const wanted = new Set(contentTerms(question));
  const fromFaq = faqAnswer(passages, wanted);
  if (fromFaq) return fromFaq;
  const ranked = [...passages].sort((a, b) => a.index - b.index);
  const candidates: Candidate[] = [];
  ranked.forEach((p, rank) => {
    // An FAQ's question introduces its answer; only the answer is quoted.
    const parts = p.faq ? [{ text: p.faq.question, heading: true }, ...passageSentences(p.faq.answer)] : passageSentences(p.text);
    parts.forEach((s, position) => {
      const terms = new Set(contentTerms(s.text));
      candidates.push({ text: s.text, rank, position, terms, asks: s.heading || ASKS.test(s.text) || restates(s.text, question), score: 0 });
    });
  });
  // Rarer terms tell more: a term every sentence holds (the product's name) hardly counts.
  const df = new Map<string, number>();
  for (const c of candidates) for (const t of c.terms) if (wanted.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  const weight = (t: string) => Math.log(1 + candidates.length / (df.get(t) ?? candidates.length));
  for (const c of candidates) {
    let shared = 0;
    for (const t of c.terms) if (wanted.has(t)) shared += weight(t);
    c.score = shared * (1 + PRIOR / (c.rank + 1));
  }
  // What a heading or a restated question asks, the sentences after it answer.
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    if (!c.asks || c.score === 0) continue;
    for (let k = 1; k <= 2; k++) {
      const next = candidates[i + k];
      if (!next || next.rank !== c.rank || next.asks) break;
      next.score += c.score * FOLLOW * (k === 1 ? 1 : 0.5);
    }
  }
  // Neighbouring passages overlap (the sentence window): a sentence is said once.
  const seen = new Set<string>();
  const answers = candidates.filter((c) => !c.asks && !seen.has(c.text) && seen.add(c.text));
  const best = answers
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.rank - b.rank || a.position - b.position)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.rank - b.rank || a.position - b.position);
  const chosen = best.length ? best : answers.slice(0, 1);
  // Chinese sentences follow each other without a space.
  return chosen.reduce((out, c) => (out ? out + (/[。！？；]$/u.test(out) && CJK_CHAR.test(c.text[0]) ? "" : " ") : "") + c.text, "");
}
