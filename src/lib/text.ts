// Cutting text a person wrote: at a UTF-16 length (what JavaScript, SQLite's length() of a JSON string and the
// platforms count), never between the two halves of a character of U+10000 and up (an emoji, a rare CJK character),
// which would leave a lone surrogate that every reader shows as U+FFFD.

/** Where to cut `text` to at most `n` UTF-16 units: `n`, or one less where that would split a surrogate pair. */
export const cutIndex = (text: string, n: number) =>
  /[\uDC00-\uDFFF]/.test(text[n] ?? "") && /[\uD800-\uDBFF]/.test(text[n - 1] ?? "") ? n - 1 : n;

/** The first `n` UTF-16 units of `text`, or one fewer rather than half a character. */
export const clip = (text: string, n: number) => (text.length <= n ? text : text.slice(0, cutIndex(text, n)));

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * The first `n` grapheme clusters of `text`: what a reader sees as one character each (an emoji with its skin tone or
 * joined family, a flag, a letter with its accents), the unit some platforms count (LINE's action labels).
 */
export function firstGraphemes(text: string, n: number): string {
  let out = "";
  let taken = 0;
  for (const { segment } of graphemes.segment(text)) {
    if (taken++ === n) break;
    out += segment;
  }
  return out;
}

/**
 * `text` with each lone surrogate (half of an emoji, sent cut) made one U+FFFD, as `String.prototype.toWellFormed`
 * does (ES2024, past the library this code compiles against). Kept as it came, it was stored as three U+FFFD, one per
 * byte of its encoding: text a visitor sends is made well-formed as it is read.
 */
export const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

/**
 * Whether `text` has a character that shows: one that is not white space, a control character or a default-ignorable
 * one (zero-width space and joiners, the word joiner, the byte order mark, the soft hyphen, variation selectors, Hangul
 * fillers), which `trim()` keeps and which print as nothing.
 */
export const hasVisibleCharacter = (text: string) =>
  /[^\p{White_Space}\p{Cc}\p{Default_Ignorable_Code_Point}]/u.test(text);

/**
 * `text` in Unicode's composed (NFC) and decomposed (NFD) forms, once when they are the same: the forms a search looks
 * for. "Café" typed on a Mac may arrive decomposed, and names stored before they were kept in NFC may be in either
 * (D1 has no Unicode normalisation to compare them by).
 */
export const unicodeForms = (text: string) => [...new Set([text.normalize("NFC"), text.normalize("NFD")])];
