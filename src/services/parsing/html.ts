import { LinearParser } from "./html-parser";
import { decodeText, tidy } from "./text";
import type { ParsedDocument } from "./types";

// Never content: code, styling, embedded objects and site navigation around the article.
const SKIPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "canvas",
  "iframe",
  "object",
  "nav",
  "select",
  "head",
]);
// Blocks that stand apart as paragraphs (a blank line around them) or as lines of their own.
const PARAGRAPHS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "details",
  "dl",
  "fieldset",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "main",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "ul",
]);
const LINES = new Set(["body", "caption", "dd", "div", "dt", "figcaption", "html", "li", "summary", "tr"]);
const CELLS = new Set(["td", "th"]);
// The parser closes void elements at once; their close must not undo the skip count of an open element.
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);

/** HTML to its visible text, one block per line, and its `<title>` (else its first `<h1>`). */
export function parseHtml(bytes: Uint8Array): ParsedDocument {
  const html = decodeText(bytes, "HTML");
  const out = new Output();
  let skipDepth = 0;
  let preDepth = 0;
  let title = "";
  let inTitle = false;
  let h1 = "";
  let inH1 = false;
  const block = (name: string) => {
    if (PARAGRAPHS.has(name)) out.breakTo(2);
    else if (LINES.has(name)) out.breakTo(1);
  };
  const parser = new LinearParser(
    {
      onopentag(name, attributes) {
        if (name === "title") inTitle = true;
        if (skipDepth || SKIPPED.has(name) || "hidden" in attributes || attributes["aria-hidden"] === "true") {
          if (!VOID.has(name)) skipDepth++;
          return;
        }
        if (name === "h1") inH1 = true;
        if (name === "pre") preDepth++;
        if (name === "br") out.lineBreak();
        else block(name);
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
        if (VOID.has(name)) return;
        if (skipDepth) {
          skipDepth--;
          return;
        }
        if (name === "h1") inH1 = false;
        if (name === "pre") preDepth = Math.max(0, preDepth - 1);
        if (CELLS.has(name)) out.write(" | ");
        else block(name);
      },
      ontext(text) {
        if (inTitle) title += text;
        if (skipDepth) return;
        if (inH1) h1 += text;
        if (preDepth) out.write(text);
        else {
          const collapsed = text.replace(/\s+/g, " ");
          out.write(out.endsInSpace() && collapsed.startsWith(" ") ? collapsed.slice(1) : collapsed);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const text = tidy(trimLines(out.toString()));
  const heading = (title || h1).replace(/\s+/g, " ").trim();
  return { pages: [{ number: 1, text }], ...(heading ? { title: heading } : {}) };
}

/**
 * The text written so far, with what the next step needs to know of its end kept apart: its trailing spaces (a block
 * or a `<br>` drops them) and the line ends just before them. Each step used to run a `$`-anchored regex over the
 * whole text, which reads all of it: n blocks cost O(n^2) (320 KB of `<p>a</p>` took 38 s).
 */
class Output {
  private readonly parts: string[] = [];
  // The text's trailing run of spaces other than "\n", and the "\n"s that end `parts`.
  private spaces = "";
  private newlines = 0;

  write(text: string): void {
    let end = text.length;
    while (end > 0 && isBlank(text.charCodeAt(end - 1))) end--;
    if (end === 0) {
      this.spaces += text;
      return;
    }
    let newlines = 0;
    while (newlines < end && text.charCodeAt(end - 1 - newlines) === NEWLINE) newlines++;
    this.newlines = newlines === end && !this.spaces ? this.newlines + newlines : newlines;
    this.parts.push(this.spaces + text.slice(0, end));
    this.spaces = text.slice(end);
  }

  /** Is the text empty or does it end in a space (as `/(^|\s)$/` asked)? */
  endsInSpace(): boolean {
    return this.parts.length === 0 || this.spaces !== "" || this.newlines > 0;
  }

  /**
   * Drops the trailing spaces and ends the text with at least `count` line ends (an empty text with none). Adjacent
   * blocks (</li><li>) must give one line end, not two, or every list item becomes a paragraph.
   */
  breakTo(count: number): void {
    this.spaces = "";
    if (this.parts.length === 0 || this.newlines >= count) return;
    this.parts.push("\n".repeat(count - this.newlines));
    this.newlines = count;
  }

  /** A `<br>`: drops the trailing spaces and ends the line. */
  lineBreak(): void {
    this.spaces = "";
    this.parts.push("\n");
    this.newlines++;
  }

  toString(): string {
    return this.parts.join("") + this.spaces;
  }
}

/**
 * Drops each line's leading spaces and the bars and spaces that end it (table cells leave " | " after each), as
 * `text.replace(/^[^\S\n]+|(?:[^\S\n]*\|)*[^\S\n]*$/gm, "")` did, "\r", U+2028 and U+2029 ending lines for it too. The
 * regex read a run of bars and spaces again from each of its characters when the run ended no line (a row's empty
 * cells before a filled one): the square of its length. Here a run is read once.
 */
function trimLines(text: string): string {
  const parts: string[] = [];
  let kept = 0; // where the text not yet copied to `parts` begins
  let at = 0;
  while (at <= text.length) {
    if ((at === 0 || isLineEnd(text.charCodeAt(at - 1))) && isBlank(text.charCodeAt(at))) {
      let end = at + 1;
      while (isBlank(text.charCodeAt(end))) end++;
      parts.push(text.slice(kept, at));
      kept = at = end;
      continue;
    }
    // The run of bars and spaces from here, up to its last line end (the regex's greedy choice).
    let end = at;
    let lineEnd = -1;
    for (; ; end++) {
      const c = text.charCodeAt(end); // NaN past the end
      if (end === text.length || isLineEnd(c)) lineEnd = end;
      if (end === text.length || (c !== BAR && !isBlank(c))) break;
    }
    if (lineEnd > at) {
      parts.push(text.slice(kept, at));
      kept = at = lineEnd;
    } else {
      // An empty match, after which a global replace moves on by one character; or no line end in the run, so no
      // match starts in it, nor just after it.
      at = lineEnd === at ? at + 1 : end + 1;
    }
  }
  parts.push(text.slice(kept));
  return parts.join("");
}

const NEWLINE = 0x0a;
const BAR = 0x7c;
// A regex's \s, and the characters at which its `^` and `$` match with the m flag.
const isSpace = (c: number) =>
  (c >= 0x09 && c <= 0x0d) ||
  c === 0x20 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;
const isBlank = (c: number) => c !== NEWLINE && isSpace(c);
const isLineEnd = (c: number) => c === NEWLINE || c === 0x0d || c === 0x2028 || c === 0x2029;
