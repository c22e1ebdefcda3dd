import type { Chunk, ParsedDocument } from "../parsing/types";

export interface ChunkOptions {
  /** Longest chunk, in characters, unless a single sentence is longer (then it is cut). Default 800. */
  targetChars?: number;
  /** Sentences repeated from the end of one chunk at the start of the next. Default 0. */
  overlapSentences?: number;
}

/** Where a sentence sits in the text it came from: `text.slice(start, end)`. */
export interface Span {
  start: number;
  end: number;
}

export const PAGE_SEPARATOR = "\n\n";
const DEFAULT_TARGET = 800;
const TERMINATORS = ".!?";
// Full stop, exclamation, question mark and semicolon of Chinese and Japanese end a sentence with no space after.
const CJK_TERMINATORS = "。！？；";
const CLOSERS = "\"')]}»”’」』）》】";
// A period after these is an abbreviation, not a sentence end ("Dr. Smith", "etc. and").
const ABBREVIATIONS = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "sr",
  "jr",
  "st",
  "vs",
  "etc",
  "no",
  "fig",
  "approx",
  "inc",
  "ltd",
  "co",
  "dept",
  "vol",
  "pp",
  "cf",
  "al",
]);

/** The text's sentences, trimmed, in order. */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).map((s) => text.slice(s.start, s.end));
}

/**
 * Sentence boundaries: `.!?` (with closing quotes or brackets) before whitespace or the end,
 * `。！？；` anywhere, and every line end. Spans exclude surrounding whitespace.
 */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  const push = (start: number, end: number) => {
    while (start < end && isSpace(text[start])) start++;
    while (end > start && isSpace(text[end - 1])) end--;
    if (end > start) spans.push({ start, end });
  };
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\n") {
      push(start, i);
      start = i + 1;
      continue;
    }
    const cjk = CJK_TERMINATORS.includes(ch);
    if (!cjk && !TERMINATORS.includes(ch)) continue;
    let end = i + 1;
    while (!cjk && end < text.length && TERMINATORS.includes(text[end])) end++;
    while (end < text.length && CLOSERS.includes(text[end])) end++;
    if (
      !cjk &&
      ((end < text.length && !isSpace(text[end])) || goesOn(text, end) || (ch === "." && isAbbreviation(text, i)))
    )
      continue;
    push(start, end);
    start = end;
    i = end - 1;
  }
  push(start, text.length);
  return spans;
}

function isAbbreviation(text: string, dot: number): boolean {
  let k = dot;
  while (k > 0 && /[\p{L}.]/u.test(text[k - 1])) k--;
  const word = text.slice(k, dot).toLowerCase();
  // "e.g", "i.e", "U.S", "a.m"; but "example.com" ends a sentence like any word.
  return ABBREVIATIONS.has(word) || /^(\p{L}{1,2}\.)+\p{L}{1,2}$/u.test(word);
}

// A sentence does not start in lower case: '"Fine!" she said', "approx. ten" go on.
function goesOn(text: string, end: number): boolean {
  let next = end;
  while (next < text.length && text[next] !== "\n" && isSpace(text[next])) next++;
  return /\p{Ll}/u.test(text[next] ?? "");
}

const isSpace = (ch: string) => /\s/.test(ch);

/**
 * Sentence-aware chunks of a document: whole sentences packed up to `targetChars`. Offsets index
 * the full text (pages joined by a blank line), so `fullText.slice(startCharIdx, endCharIdx)` is
 * the chunk's text. A chunk stays on one page unless a single sentence runs across a page break.
 */
export function chunkDocument(doc: ParsedDocument, options: ChunkOptions = {}): Chunk[] {
  const target = Math.max(1, Math.floor(options.targetChars ?? DEFAULT_TARGET));
  const overlap = Math.max(0, Math.floor(options.overlapSentences ?? 0));
  const fullText = doc.pages.map((p) => p.text).join(PAGE_SEPARATOR);
  const pageStarts: number[] = [];
  let offset = 0;
  for (const page of doc.pages) {
    pageStarts.push(offset);
    offset += page.text.length + PAGE_SEPARATOR.length;
  }
  const pageAt = (index: number) => {
    let lo = 0;
    let hi = pageStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (pageStarts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return doc.pages[lo].number;
  };
  const toChunk = (units: Span[]): Chunk => {
    const startCharIdx = units[0].start;
    const endCharIdx = units[units.length - 1].end;
    return {
      text: fullText.slice(startCharIdx, endCharIdx),
      pageStart: pageAt(startCharIdx),
      pageEnd: pageAt(endCharIdx - 1),
      startCharIdx,
      endCharIdx,
    };
  };

  const units = sentenceSpans(fullText).flatMap((s) =>
    s.end - s.start > target ? cutLongSentence(fullText, s, target) : [s],
  );
  const chunks: Chunk[] = [];
  let current: Span[] = [];
  for (const unit of units) {
    // A new page starts a new chunk, so that a citation names the one page its passage is on.
    if (current.length && (unit.end - current[0].start > target || pageAt(unit.start) !== pageAt(current[0].start))) {
      chunks.push(toChunk(current));
      current = overlap ? current.slice(-overlap) : [];
      while (
        current.length &&
        (unit.end - current[0].start > target || pageAt(unit.start) !== pageAt(current[0].start))
      )
        current.shift();
    }
    current.push(unit);
  }
  if (current.length) chunks.push(toChunk(current));
  return chunks;
}

/**
 * Pieces of at most `target` characters, cut after a space or comma in the second half of the
 * window when there is one, else between characters (CJK text has no spaces), never inside a
 * surrogate pair.
 */
function cutLongSentence(text: string, span: Span, target: number): Span[] {
  const pieces: Span[] = [];
  let start = span.start;
  while (span.end - start > target) {
    let cut = start + target;
    for (let k = cut; k > start + target / 2; k--) {
      if (isSpace(text[k]) || "，、,".includes(text[k - 1])) {
        cut = k;
        break;
      }
    }
    if (cut === start + target && /[\uDC00-\uDFFF]/.test(text[cut]) && cut - 1 > start) cut--;
    let end = cut;
    while (end > start && isSpace(text[end - 1])) end--;
    pieces.push({ start, end });
    start = cut;
    while (start < span.end && isSpace(text[start])) start++;
  }
  if (start < span.end) pieces.push({ start, end: span.end });
  return pieces;
}
