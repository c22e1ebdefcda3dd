import { CJK_STOPWORDS, contentTerms, termsOf } from "../knowledge/retrieval/terms";
import { conceptsIn } from "./local-concepts";

/**
 * What a question asks about, as the built-in model weighs it: its key units. A unit is one thing
 * the answer must speak of: a concept of the map ("how much" is the price, "where are you" the
 * address), an English word that is neither a stopword nor a question's filler ("tell", "need"),
 * or a Chinese character, met through the question's own pairs of characters (Chinese has no spaces;
 * a pair is a word far more often than a single character is). A sentence answers as far as it
 * covers the question's units (docs/decisions.md, "The built-in model's answer composition").
 */

export interface Unit {
  /** The unit's name: "@concept", a stemmed word, or a character. */
  key: string;
  /** What a sentence may hold to speak of it: the concept, the stem, or the character's pairs. */
  alternatives: string[];
  /** What the question asks for ("how much": a price; "where": the address), not only what it is about. */
  focus?: boolean;
  /** A concept's own words in the question, stemmed: a sentence saying one of them says it as asked. */
  literal?: string[];
}

/** Concepts a question words as the kind of answer it wants, in this order of precedence. */
const ANSWER_KINDS = ["price", "duration", "address", "phone", "hours", "contact", "payment"];
const ASKS_WHAT =
  /^(?:\W*(?:and|so|but|ok|okay)\s+)?(?:what|how|when|where|which|who)\b|什麼|什么|多少|多久|幾|几|哪|怎/u;

/** Words that make a question a question but say nothing of its subject. */
const FILLER = new Set(
  [
    "tell know need want like please get let also any anything some someone just help able possible ok okay",
    "hi hello hey thank thanks question ask wonder wondering sure still really take takes policy policies",
    "rule rules info information detail details option options after before within during about per than more less",
  ]
    .join(" ")
    .split(" ")
    .flatMap(contentTerms),
);
/** Chinese characters of the same kind (Traditional forms and a few the shared stopword list lacks). */
const CJK_FILLER = new Set("們您嗎麼請問哪些可以能會会想要需知道沒没呀啦喔哦嘛樣样如何是否還还嗨".split(""));

const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff]+/gu;
const IS_CJK = /^[\u3400-\u9fff\uf900-\ufaff]/u;
const quiet = (c: string) => CJK_STOPWORDS.has(c) || CJK_FILLER.has(c);

/** The key units of a question. */
export function keyUnits(text: string): Unit[] {
  const units: Unit[] = [];
  const absorbed = new Set<string>();
  const concepts = conceptsIn(text);
  const focus = ASKS_WHAT.test(text.trim().toLowerCase()) ? ANSWER_KINDS.find((k) => concepts.has(k)) : undefined;
  for (const [id, words] of concepts) {
    const literal = [...new Set(words.flatMap((w) => (IS_CJK.test(w) ? [w] : contentTerms(w))))];
    units.push({ key: `@${id}`, alternatives: [`@${id}`], literal, ...(id === focus ? { focus: true } : {}) });
    for (const w of words) for (const t of contentTerms(w)) absorbed.add(t);
    for (const w of words) for (const c of w) if (IS_CJK.test(c)) absorbed.add(c);
  }
  const seen = new Set<string>();
  for (const stem of contentTerms(text)) {
    if (IS_CJK.test(stem) || FILLER.has(stem) || absorbed.has(stem) || seen.has(stem)) continue;
    seen.add(stem);
    units.push({ key: stem, alternatives: [stem] });
  }
  for (const [run] of text.normalize("NFKC").toLowerCase().matchAll(CJK_RUN)) {
    const chars = [...run];
    chars.forEach((c, i) => {
      if (quiet(c) || absorbed.has(c) || seen.has(c)) return;
      seen.add(c);
      const alternatives: string[] = [];
      const before = chars[i - 1];
      const after = chars[i + 1];
      if (before && !quiet(before)) alternatives.push(before + c);
      if (after && !quiet(after)) alternatives.push(c + after);
      // At a word's edge (the run's end, or a function character) the character may stand alone.
      if (!before || quiet(before) || !after || quiet(after)) alternatives.push(c);
      units.push({ key: c, alternatives });
    });
  }
  return units;
}

/** What a sentence holds, in the units' terms: stemmed words, concepts, CJK characters and pairs. */
export function features(text: string): Set<string> {
  const out = new Set(contentTerms(text));
  for (const t of termsOf(text)) if (IS_CJK.test(t)) out.add(t);
  for (const id of conceptsIn(text).keys()) out.add(`@${id}`);
  return out;
}

export const holds = (held: Set<string>, unit: Unit) => unit.alternatives.some((a) => held.has(a));
