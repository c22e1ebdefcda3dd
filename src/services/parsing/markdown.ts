import { decodeHTML } from "entities";
import { decodeText, tidy } from "./text";
import type { ParsedDocument } from "./types";

/**
 * Markdown to the words a reader sees: syntax (heading marks, emphasis, link targets, table
 * rules, fences) would otherwise be embedded and cited as if it were content.
 */
export function parseMarkdown(bytes: Uint8Array): ParsedDocument {
  let source = decodeText(bytes, "Markdown");
  let title: string | undefined;
  const frontMatter = /^---\n([\s\S]*?)\n(?:---|\.\.\.)\n/.exec(source);
  if (frontMatter) {
    title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(frontMatter[1])?.[1];
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
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const text = inline(heading[1]);
      title ??= text || undefined;
      lines.push(text);
      continue;
    }
    // Setext underlines, thematic breaks, table rules and link reference definitions carry no words.
    if (/^\s{0,3}([-=*_]\s*){3,}$/.test(line) || /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$/.test(line)) continue;
    if (/^\s{0,3}\[[^\]]+\]:\s+\S+/.test(line)) continue;
    const body = line
      .replace(/^\s*(>\s?)+/, "")
      .replace(/^\s*([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/, "")
      .replace(/^\s*\|(.*?)\|?\s*$/, (_, cells: string) =>
        cells
          .split("|")
          .map((c) => c.trim())
          .join(" | "),
      );
    lines.push(inline(body));
  }
  return { pages: [{ number: 1, text: tidy(lines.join("\n")) }], ...(title ? { title } : {}) };
}

// One line end for a run of line breaks and block boundaries (`</p><div>`), with the spaces around them.
const BREAKING_TAGS =
  /(?:[^\S\n]*(?:<br\s*\/?>|<\/?(?:p|div|li|ul|ol|tr|td|th|table|h[1-6]|blockquote|dd|dt|hr)\b[^>]*>))+[^\S\n]*/gi;

function inline(text: string): string {
  return (
    text
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
      .replace(/<((?:https?|mailto):[^>\s]+)>/g, "$1")
      // Inline HTML: a line break or a block boundary still separates words ("Monday<br>Closed").
      .replace(BREAKING_TAGS, "\n")
      .replace(/<\/?[a-zA-Z][^>]*>/g, "")
      .replace(/`+([^`]+?)`+/g, "$1")
      .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, "$2")
      .replace(/(~~)(?=\S)(.+?)(?<=\S)~~/g, "$2")
      .replace(/(^|[^\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?!\w)/g, "$1$2")
      .replace(/(^|[^\w_])_(?=\S)([^_]+?)(?<=\S)_(?!\w)/g, "$1$2")
      .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, "$1")
      .replace(/&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/gi, (entity) => decodeHTML(entity))
  );
}
