/**
 * The sentences of a retrieved passage, each marked whether it is a heading, as the built-in model
 * quotes them. A title is never quoted, and a title run into its first sentence is split off: a PDF
 * set in one font size, or a passage widened by its neighbours, gives "Warranty Every Acme product
 * comes with …" on one line (docs/decisions.md, "The built-in model's answer composition").
 */

export interface PassageSentence {
  text: string;
  heading: boolean;
}

const HEADING = /^\s{0,3}#{1,6}\s+/;
const ENDS = /[.!?。！？;；:：,，…]["”’」』)）]*$/u;
const CJK_CHAR = /[\u3400-\u9fff]/u;

/**
 * Words that open a sentence and never end a title: after a few title words, "Every", "You", "We",
 * "Our" or "The" in capitals starts the sentence the title ran into ("Returns You may return …").
 */
const OPENERS = new Set(
  (
    "a an the every each all any some most no our your my their its his her this these those that there it " +
    "you we they he she i " +
    "if when while to for in on at by with from after before during please orders customers products items"
  ).split(" "),
);
/** Words a sentence has and a title does not (verbs that hold a sentence together). */
const NOT_IN_TITLES = new Set(
  "is are was were be been can could will would may might must should shall have has had do does did not".split(" "),
);

/**
 * The heading a line starts with, when a title ran into its first sentence: one to six title words
 * (no punctuation), then a capitalised word that opens sentences (OPENERS, or a word the sources
 * also write in lower case, so not a name), then at least three more words.
 */
export function runInHeading(line: string, lowerWords: Set<string>): string | null {
  const words = line.split(/\s+/);
  if (words.length < 5 || OPENERS.has(words[0].toLowerCase()) || !/^\p{Lu}/u.test(words[0])) return null;
  for (let k = 1; k <= Math.min(6, words.length - 4); k++) {
    const prev = words[k - 1];
    // A title holds no sentence punctuation; a word ending in it ends the search.
    if (/[.,;:!?()"“”]/u.test(prev) || NOT_IN_TITLES.has(prev.toLowerCase()) || OPENERS.has(prev.toLowerCase()))
      return null;
    const word = words[k];
    if (!/^\p{Lu}\p{Ll}*$/u.test(word)) continue;
    const lower = word.toLowerCase();
    // A title's words are capitalised or plain nouns; only the opener may start lower in the sources.
    const titleCase = words.slice(0, k).every((w) => /^\p{Lu}/u.test(w));
    if (OPENERS.has(lower) || (titleCase && k <= 3 && lowerWords.has(lower) && /^\p{Ll}/u.test(words[k + 1] ?? "")))
      return words.slice(0, k).join(" ");
  }
  return null;
}

/** Words written in lower case somewhere in the texts: a capitalised one of them is not a name. */
export function lowerCaseWords(texts: string[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) for (const [w] of t.matchAll(/(?<![\p{L}\p{N}])\p{Ll}+(?![\p{L}\p{N}])/gu)) out.add(w);
  return out;
}

/**
 * The sentences of a passage: each line on its own (headings, list items), and within a line the
 * sentences, split after `.`, `!` or `?` followed by a space and a word that does not start in lower
 * case (so "2.4 GHz", "9 a.m. to 6 p.m." and "lumora.com" stay whole), or after a CJK full stop.
 * A title run into the sentence after it, at the start of a line or after a sentence's end, is a
 * heading of its own.
 */
export function passageSentences(text: string, lowerWords: Set<string>): PassageSentence[] {
  const out: PassageSentence[] = [];
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
    const parts = line
      .split(/(?<=[.!?]["”’)]*)\s+(?=[^\p{Ll}\s])|(?<=[。！？]["”’」』)）]*)/u)
      .map((s) => s.trim())
      .filter(Boolean);
    for (let i = 0; i < parts.length; i++) {
      // A list number alone ("1.") belongs to what follows it.
      if (/^\d{1,3}[.)]$/.test(parts[i]) && i + 1 < parts.length) {
        parts[i + 1] = `${parts[i]} ${parts[i + 1]}`;
        continue;
      }
      // A sentence-window join puts the next section's title after a full stop ("… free. Shipping"),
      // or runs it into its first sentence ("… free. Shipping We ship …").
      if (i > 0 && i === parts.length - 1 && !ENDS.test(parts[i]) && parts[i].split(/\s+/).length <= 8) {
        out.push({ text: parts[i], heading: true });
        continue;
      }
      const heading = runInHeading(parts[i], lowerWords);
      if (heading) {
        out.push({ text: heading, heading: true });
        out.push({ text: parts[i].slice(heading.length).trim(), heading: false });
      } else out.push({ text: parts[i], heading: false });
    }
  }
  return out;
}

/**
 * Capitalised words the texts use inside a sentence ("Every Acme product"): names, which keep their
 * capital when a reply puts "Yes, " before them. "Helmets" opening a sentence is not one.
 */
export function namesIn(texts: string[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) for (const [w] of t.matchAll(/(?<=[\p{Ll}\p{N},;] +)\p{Lu}[\p{L}-]*/gu)) out.add(w);
  return out;
}
