import { contentTerms } from "../knowledge/retrieval/terms";
import { terms as wordsOf } from "./text";
import type { Passage } from "./types";
import { features, holds, keyUnits, type Unit } from "./local-terms";
import { leadingConcept } from "./local-concepts";
import { lowerCaseWords, namesIn, passageSentences } from "./local-sentences";
import { yesOrNo } from "./local-yes-no";

/**
 * The built-in model's extractive answer (docs/decisions.md, "The built-in model's answer
 * composition"): for an FAQ about the question, its answer field; for other text, the sentences
 * that answer, best first, each once, and nothing else. A sentence answers as far as it covers the
 * question's key units (local-terms.ts: words, concepts of the map, Chinese pairs), each weighted by
 * how rare it is among the passages' sentences; one covering less than half of that weight does not
 * answer, and when none does the model says it does not know. A heading, a question or a sentence
 * restating the question is never quoted: it tells what the sentences after it are about. A
 * follow-up's previous question (`context`) breaks ties towards its subject; it never makes a
 * sentence an answer.
 */

const MAX_SENTENCES = 3;
/** Share of the question's key weight a sentence must cover (more than) to answer it: one of two things asked is not an
 * answer. */
const MIN_COVERAGE = 0.5;
/** A question with this many key units or more is told as a story; it needs two of them, and this share of its weight.
 * */
const LONG_QUESTION = 4;
const LONG_COVERAGE = 0.25;
/** Share of a heading's or restated question's own weight handed to the next sentence, and half of that to the one
 * after. */
const FOLLOW = 0.6;
/** A sentence whose words are mostly the question's and hold at least half of them says the question again. */
const RESTATES_OWN = 0.6;
const RESTATES_QUESTION = 0.5;
/** What the best-ranked passage adds to a score (the n-th adds PRIOR / n): retrieval and rerank saw more than these
 * units. */
const PRIOR = 0.3;
/** What a unit held only by the sentence's heading, or by the question just before it, counts for its score. */
const INHERITED = 0.25;
/** How much more the thing a question asks for ("how much": a price) counts than what it is about. */
const FOCUS = 2;
/** What a sentence whose subject (its first concept) is not one the question asks about loses: its score / (1 +
 * ELSEWHERE). */
const ELSEWHERE = 0.5;
/** And for each other concept it speaks of besides: 1 / (1 + BESIDES per concept). */
const BESIDES = 0.1;
/** Concepts that qualify what a sentence says rather than being its subject ("per day", "in the EU", "any product"). */
const GENERIC = new Set(["duration", "eu", "product"]);
/** What a concept said in other words than the question's counts for in a score ("refunds" for "returns"): the asker's
 * own word is the surer match. */
const SYNONYM = 0.8;
/** What a unit of the previous question counts for, next to the question's own. */
const CONTEXT = 0.3;
/** Sentences opening with these lean on the one before ("It does not cover …"): they are quoted after it. */
const CONTINUES = new RegExp(
  String.raw`^(?:it|its|this|that|these|those|they|their|such|however|but|otherwise|also|in\s+that\s+case` +
    String.raw`|這|这|此|它|但|另外|如果|否則|否则)(?![\p{L}\p{N}])`,
  "iu",
);

interface Candidate {
  text: string;
  /** Rank of its passage (0: best) and place in it. */
  rank: number;
  position: number;
  held: Set<string>;
  /** What its section's heading, or a question just before it, is about. */
  inherited: Set<string>;
  /** A heading or a question: it may introduce the answer but is never one. */
  asks: boolean;
}

/** A question, or a line that introduces what follows ("Statuses you may see:"). */
const ASKS = /[?？:：]["”’)]*$/u;
const CJK_CHAR = /[\u3400-\u9fff]/u;

/**
 * Whether a sentence says the question again (see RESTATES_*), word for word, small words included:
 * "We sell bicycles." answers "Do you sell bicycles?", "Payment methods we accept" restates "What
 * payment methods do you accept?".
 */
function restates(sentence: string, question: string): boolean {
  // A figure the question does not hold is what it asked: "A cake for 20 people costs 45 euros." answers "What does a
  // cake for 20 people cost?", however many of its words it says again.
  const asked = new Set(figures(question));
  if (figures(sentence).some((f) => !asked.has(f))) return false;
  const said = new Set(wordsOf(sentence));
  const words = new Set(wordsOf(question));
  if (!said.size || !words.size) return false;
  let common = 0;
  for (const w of said) if (words.has(w)) common++;
  return common / said.size >= RESTATES_OWN && common / words.size >= RESTATES_QUESTION;
}

/** The numbers a text states ("20", "4.5", "1,000"). */
const figures = (text: string) => text.match(/\d+(?:[.,]\d+)*/g) ?? [];

/** Whether a text shares a meaningful term with the question. */
const touches = (text: string, wanted: Set<string>) => contentTerms(text).some((t) => wanted.has(t));

/** Whether any passage says something about the question (shares a meaningful term or a concept with it). */
export const mentions = (question: string, passages: Passage[]) => {
  const units = keyUnits(question);
  const wanted = new Set(contentTerms(question));
  return passages.some((p) => touches(p.text, wanted) || units.some((u) => holds(features(p.text), u)));
};

/** Each unit's weight: rarer among the sentences tells more; one no sentence holds weighs as the rarest. */
function weigh(units: Unit[], candidates: Candidate[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const u of units) {
    const df = candidates.filter((c) => holds(c.held, u)).length;
    weights.set(u.key, Math.log(1 + candidates.length / Math.max(1, df)) * (u.focus ? FOCUS : 1));
  }
  return weights;
}

/** The answer of the FAQ the question is about: the best-ranked passage, when it is an FAQ covering the question. */
function faqAnswer(passages: Passage[], units: Unit[], wanted: Set<string>): string | null {
  const best = [...passages].sort((a, b) => a.index - b.index)[0];
  if (!best?.faq) return null;
  const text = `${best.faq.question}\n${best.faq.answer}`;
  const held = features(text);
  const matched = units.filter((u) => holds(held, u)).length;
  const covered = units.length ? matched / units.length : 0;
  const long = units.length >= LONG_QUESTION && matched >= 2 && covered >= LONG_COVERAGE;
  if (covered <= MIN_COVERAGE && !long && !(units.length <= 1 && touches(text, wanted))) return null;
  return best.faq.answer.trim() || null;
}

const normalText = (s: string) =>
  s
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * The answer to `question` from the passages (best first by `index`), "" when they hold none.
 * `context`: the previous question when this one is a follow-up (local-context.ts).
 */
export function extract(question: string, passages: Passage[], context: string | null = null): string {
  const units = keyUnits(question);
  const wanted = new Set(contentTerms(question));
  const fromFaq = faqAnswer(passages, units, wanted);
  if (fromFaq) return fromFaq;
  if (!units.length) return "";
  const ranked = [...passages].sort((a, b) => a.index - b.index);
  const lowerWords = lowerCaseWords(ranked.map((p) => p.faq?.answer ?? p.text));
  const candidates: Candidate[] = [];
  ranked.forEach((p, rank) => {
    // An FAQ's question introduces its answer; only the answer is quoted.
    const parts = p.faq
      ? [{ text: p.faq.question, heading: true }, ...passageSentences(p.faq.answer, lowerWords)]
      : passageSentences(p.text, lowerWords);
    let section = new Set<string>();
    let asked: { held: Set<string>; left: number } | null = null;
    parts.forEach((s, position) => {
      const held = features(s.text);
      const asks = s.heading || ASKS.test(s.text) || restates(s.text, question);
      const inherited = new Set([...section, ...(asked?.held ?? [])]);
      candidates.push({ text: s.text, rank, position, held, inherited, asks });
      // A heading speaks for its whole section; a question for the two sentences after it (the answer follows the
      // question).
      if (s.heading) section = held;
      if (asks && !s.heading) asked = { held, left: 2 };
      else if (asked && --asked.left === 0) asked = null;
    });
  });
  // The reply is in the question's script: a Chinese question gets the Chinese sentences, when the sources have any.
  const chinese = CJK_CHAR.test(question);
  const inScript = candidates.filter((c) => CJK_CHAR.test(c.text) === chinese);
  const answers = (inScript.length ? inScript : candidates).filter((c) => !c.asks && c.text.length > 1);
  const weights = weigh(units, answers);
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  const ownWeight = (c: Candidate) => units.reduce((sum, u) => sum + (holds(c.held, u) ? weights.get(u.key)! : 0), 0);
  // What a heading or a restated question asks, the sentences right after it answer (the answer follows the question).
  const handed = new Map<Candidate, number>();
  candidates.forEach((c, i) => {
    // A plain title ("Bike rental") speaks for its section (inherited); a question, or a title that
    // says the question again, is answered by what comes right after it.
    const asked = c.asks && (ASKS.test(c.text) || restates(c.text, question)) ? ownWeight(c) : 0;
    for (let k = 1; k <= 2 && asked > 0; k++) {
      const next = candidates[i + k];
      if (!next || next.rank !== c.rank || next.asks) break;
      handed.set(next, (handed.get(next) ?? 0) + asked * FOLLOW * (k === 1 ? 1 : 0.5));
    }
  });
  const contextUnits = context ? keyUnits(context).filter((u) => !weights.has(u.key)) : [];
  const askedConcepts = new Set([...units, ...contextUnits].map((u) => u.key).filter((k) => k.startsWith("@")));
  const contextWeights = weigh(contextUnits, answers);
  const coveredWeight = (c: Candidate) =>
    units.reduce((sum, u) => sum + (holds(c.held, u) || holds(c.inherited, u) ? weights.get(u.key)! : 0), 0);
  const scored = answers.map((c) => {
    let own = 0;
    let inherited = 0;
    for (const u of units) {
      // The focus weighs double for coverage; for the score the sort has put the sentences holding it first.
      if (holds(c.held, u))
        own +=
          (weights.get(u.key)! / (u.focus ? FOCUS : 1)) *
          (!u.literal || u.literal.some((l) => c.held.has(l)) ? 1 : SYNONYM);
      else if (holds(c.inherited, u)) inherited += weights.get(u.key)!;
    }
    let fromContext = 0;
    for (const u of contextUnits)
      fromContext += holds(c.held, u)
        ? contextWeights.get(u.key)!
        : holds(c.inherited, u)
          ? INHERITED * contextWeights.get(u.key)!
          : 0;
    // A sentence about something else ("You may return … within 30 days of delivery" for a delivery question) answers
    // less squarely.
    const about = leadingConcept(c.text, GENERIC);
    const elsewhere = about !== null && !askedConcepts.has(`@${about}`);
    let besides = 0;
    for (const f of c.held) if (f.startsWith("@") && !askedConcepts.has(f) && !GENERIC.has(f.slice(1))) besides++;
    const score =
      ((own + INHERITED * inherited + (handed.get(c) ?? 0) + CONTEXT * fromContext) * (1 + PRIOR / (c.rank + 1))) /
      ((elsewhere ? 1 + ELSEWHERE : 1) * (1 + BESIDES * besides));
    return { c, own, coverage: coveredWeight(c) / total, score };
  });
  // A sentence answers when it speaks of the question itself (a unit of its own) and covers enough of it.
  // What the question asks for ("how long": a duration) comes first: a sentence holding it answers, one without it is
  // about the subject.
  const focus = units.find((u) => u.focus);
  const answersFocus = (c: Candidate) => (focus && holds(c.held, focus) ? 1 : 0);
  // A long question tells its story ("my card keeps getting declined when the subscription tries to
  // renew"): most of its words are not the answer's, so two things of it, a quarter of its weight, will do.
  const matched = (c: Candidate) => units.filter((u) => holds(c.held, u) || holds(c.inherited, u)).length;
  const answersIt = (s: { c: Candidate; own: number; coverage: number }) =>
    s.own > 0 &&
    (s.coverage > MIN_COVERAGE || (units.length >= LONG_QUESTION && matched(s.c) >= 2 && s.coverage >= LONG_COVERAGE));
  const eligible = scored
    .filter(answersIt)
    .sort(
      (a, b) =>
        answersFocus(b.c) - answersFocus(a.c) ||
        b.score - a.score ||
        a.c.rank - b.c.rank ||
        a.c.position - b.c.position,
    );
  if (!eligible.length) return "";
  const best = eligible[0];
  const chosen: Candidate[] = [best.c];
  const said = new Set([normalText(best.c.text)]);
  const covered = new Set(units.filter((u) => holds(best.c.held, u)).map((u) => u.key));
  const add = (c: Candidate) => {
    const key = normalText(c.text);
    // Neighbouring passages overlap (the sentence window): a sentence is said once, and not inside a longer one.
    if (
      chosen.length >= MAX_SENTENCES ||
      !key ||
      [...said].some((s) => s === key || s.includes(key) || key.includes(s))
    )
      return;
    said.add(key);
    chosen.push(c);
  };
  const next = candidates.find((c) => c.rank === best.c.rank && c.position === best.c.position + 1);
  if (next && !next.asks && CONTINUES.test(next.text)) add(next);
  // Another sentence is quoted only for a part of the question the first ones leave open.
  for (const s of eligible.slice(1)) {
    const adds = units.filter((u) => !covered.has(u.key) && holds(s.c.held, u));
    if (!adds.length) continue;
    const before = chosen.length;
    add(s.c);
    if (chosen.length > before) for (const u of adds) covered.add(u.key);
  }
  const first = yesOrNo(
    question,
    units,
    best.c.text,
    best.c.held,
    best.c.inherited,
    namesIn(answers.map((c) => c.text)),
  );
  const texts = [first, ...chosen.slice(1).map((c) => c.text)];
  // Chinese sentences follow each other without a space.
  return texts.reduce(
    (out, t) => (out ? out + (/[。！？；]$/u.test(out) && CJK_CHAR.test(t[0]) ? "" : " ") : "") + t,
    "",
  );
}
