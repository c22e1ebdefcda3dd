import { Parser } from "htmlparser2";
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
  let out = "";
  let skipDepth = 0;
  let preDepth = 0;
  let title = "";
  let inTitle = false;
  let h1 = "";
  let inH1 = false;
  // Adjacent blocks (</li><li>) must give one line end, not two, or every list item becomes a paragraph.
  const breakTo = (newlines: number) => {
    out = out.replace(/[^\S\n]+$/, "");
    if (!out) return;
    const have = /\n*$/.exec(out)![0].length;
    if (have < newlines) out += "\n".repeat(newlines - have);
  };
  const block = (name: string) => {
    if (PARAGRAPHS.has(name)) breakTo(2);
    else if (LINES.has(name)) breakTo(1);
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "title") inTitle = true;
        if (skipDepth || SKIPPED.has(name) || "hidden" in attributes || attributes["aria-hidden"] === "true") {
          if (!VOID.has(name)) skipDepth++;
          return;
        }
        if (name === "h1") inH1 = true;
        if (name === "pre") preDepth++;
        if (name === "br") out = `${out.replace(/[^\S\n]+$/, "")}\n`;
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
        if (CELLS.has(name)) out += " | ";
        else block(name);
      },
      ontext(text) {
        if (inTitle) title += text;
        if (skipDepth) return;
        if (inH1) h1 += text;
        if (preDepth) out += text;
        else {
          const collapsed = text.replace(/\s+/g, " ");
          out += /(^|\s)$/.test(out) ? collapsed.replace(/^ /, "") : collapsed;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  // Table cells leave a " | " separator at the end of each row.
  const text = tidy(out.replace(/^[^\S\n]+|(?:[^\S\n]*\|)*[^\S\n]*$/gm, ""));
  const heading = (title || h1).replace(/\s+/g, " ").trim();
  return { pages: [{ number: 1, text }], ...(heading ? { title: heading } : {}) };
}
