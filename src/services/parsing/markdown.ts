import { inline } from "./markdown-inline";
import { decodeText, tidy } from "./text";
import type { ParsedDocument } from "./types";

/**
 * Markdown to the words a reader sees: syntax (heading marks, emphasis, link targets, table
 * rules, fences) would otherwise be embedded and cited as if it were content. Its time is linear in the file's size
 * (a visitor's attachment is parsed on the reply path): no pattern here is retried from each character of a long run
 * (markdown-inline.ts says how).
 */
export function parseMarkdown(bytes: Uint8Array): ParsedDocument {
  let source = decodeText(bytes, "Markdown");
  let title: string | undefined;
  const frontMatter = /^---\n([\s\S]*?)\n(?:---|\.\.\.)\n/.exec(source);
  if (frontMatter) {
    title = frontMatterTitle(frontMatter[1]);
    source = source.slice(frontMatter[0].length);
  }
  const lines: string[] = [];
  let inFence = false;
  for (const line of source.split("\n")) {
    if (/^\s{0,3}(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      lines.push(line);
      continue;
    }
    const heading = headingOf(line);
    if (heading !== undefined) {
      const text = inline(heading);
      title ??= text || undefined;
      lines.push(text);
      continue;
    }
    // Setext underlines, thematic breaks, table rules and link reference definitions carry no words.
    if (isThematicBreak(line) || isTableRule(line)) continue;
    if (/^\s{0,3}\[[^\]]+\]:\s+\S+/.test(line)) continue;
    const body = withoutQuoteMarks(line).replace(/^\s*([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/, "");
    lines.push(inline(tableRow(body) ?? body));
  }
  return { pages: [{ number: 1, text: tidy(lines.join("\n")) }], ...(title ? { title } : {}) };
}

/*
 * The block patterns below are read as plain string steps. As regexes, a repeated group (/^\s*(>\s?)+/,
 * /^\s{0,3}([-=*_]\s*){3,}$/) keeps a backtracking entry per repetition and throws a RangeError (a 500, not a
 * ParseError) on a line of a few megabytes, and two `\s*` that take turns at a run of spaces
 * (/^\s*\|?\s*:?-+/, /(.*?)\|?\s*$/) cost the square of its length.
 */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/** `***`, `- - -`, a setext `===` underline: as /^\s{0,3}([-=*_]\s*){3,}$/. */
function isThematicBreak(line: string): boolean {
  return /^\s{0,3}[-=*_][-=*_\s]*$/.test(line) && line.replace(/[^-=*_]/g, "").length >= 3;
}

/** `|---|:---:|`: at least two cells of dashes (a colon at either end), pipes between, one at either end or none. */
function isTableRule(line: string): boolean {
  let rule = line.trim();
  if (rule.startsWith("|")) rule = rule.slice(1);
  if (rule.endsWith("|")) rule = rule.slice(0, -1);
  const cells = rule.split("|");
  return cells.length > 1 && cells.every((cell) => /^:?-+:?$/.test(cell.trim()));
}

/** `> > text` -> `text`: as /^\s*(>\s?)+/ replaced by nothing. */
function withoutQuoteMarks(line: string): string {
  let at = line.length - line.trimStart().length;
  if (line[at] !== ">") return line;
  while (line[at] === ">") at += /\s/.test(line[at + 1] ?? "") ? 2 : 1;
  return line.slice(at);
}

/** The end of `text` without the characters `drop` takes, read from the end once (no pattern retried per start). */
function trimEndWhile(text: string, drop: (c: string) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text[end - 1])) end--;
  return text.slice(0, end);
}
const isSpace = (c: string) => /\s/.test(c);

/** `# Title ##` -> `Title`; undefined for a line that is no ATX heading. */
function headingOf(line: string): string | undefined {
  const marks = /^\s{0,3}#{1,6}\s+/.exec(line);
  if (!marks) return undefined;
  const text = trimEndWhile(
    trimEndWhile(trimEndWhile(line.slice(marks[0].length), isSpace), (c) => c === "#"),
    isSpace,
  );
  return LINE_TERMINATOR.test(text) ? undefined : text;
}

/** `| a | b |` -> `a | b`; undefined for a line that is no table row. */
function tableRow(line: string): string | undefined {
  const start = /^\s*\|/.exec(line);
  if (!start) return undefined;
  const cells = line.slice(start[0].length).trimEnd();
  const inner = cells.endsWith("|") ? cells.slice(0, -1) : cells;
  if (LINE_TERMINATOR.test(inner)) return undefined;
  return inner
    .split("|")
    .map((c) => c.trim())
    .join(" | ");
}

/** Front matter's `title:` value, unquoted (of the first line that starts with it); none when it is blank. */
function frontMatterTitle(frontMatter: string): string | undefined {
  let value = /^title:\s*(.+)$/m.exec(frontMatter)?.[1];
  if (value === undefined) return undefined;
  if (value.length > 1 && /^["']/.test(value)) value = value.slice(1);
  value = value.trimEnd();
  if (value.length > 1 && /["']$/.test(value)) value = value.slice(0, -1);
  return value || undefined;
}
