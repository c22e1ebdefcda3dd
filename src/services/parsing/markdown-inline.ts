import { decodeHTML } from "entities";

/**
 * A line's inline markdown to the words a reader sees. Each step finds what a regex replace found (named beside it),
 * leftmost first, but scans forward with what it has learnt: a regex retried at each opener that never closes
 * (`**a **a ...`, `[a[a...`, `<a<a...`, a run of backticks) reads the rest of the line again each time, so a line of n
 * bytes cost O(n^2), and a visitor's .md attachment is parsed on the reply path.
 */
export function inline(text: string): string {
  let out = links(text, "![", 0, "(", ")");
  out = links(out, "[", 1, "(", ")");
  out = links(out, "[", 1, "[", "]");
  out = autolinks(out);
  // Inline HTML: a line break or a block boundary still separates words ("Monday<br>Closed").
  out = breakingTags(out);
  out = tags(out);
  out = codeSpans(out);
  out = emphasis(out, ["**", "__"]);
  out = emphasis(out, ["~~"]);
  // These scan no further than the next `*` or `_`, which no other start of theirs scans past: linear as they are.
  return out
    .replace(/(^|[^\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?!\w)/g, "$1$2")
    .replace(/(^|[^\w_])_(?=\S)([^_]+?)(?<=\S)_(?!\w)/g, "$1$2")
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, "$1")
    .replace(/&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/gi, (entity) => decodeHTML(entity));
}

interface Match {
  start: number;
  end: number;
  text: string;
}

/** `text` with each match `next(from)` finds (the leftmost at or after `from`) replaced, as a global replace does. */
function replaceEach(text: string, next: (from: number) => Match | undefined): string {
  let out = "";
  let from = 0;
  for (let match = next(0); match; match = next(from)) {
    out += text.slice(from, match.start) + match.text;
    from = match.end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * `search(from)` (the first index at or after `from`, or -1) remembering its last answer, which holds for every
 * `from` up to it: asked left to right, it reads the text once in all.
 */
function remembered(search: (from: number) => number): (from: number) => number {
  let asked = -1;
  let found = -1;
  return (from) => {
    if (asked === -1 || from < asked || (found !== -1 && from > found)) {
      asked = from;
      found = search(from);
    }
    return found;
  };
}
const finder = (text: string, what: string) => remembered((from) => text.indexOf(what, from));
const classFinder = (text: string, chars: RegExp) =>
  remembered((from) => {
    chars.lastIndex = from;
    return chars.exec(text)?.index ?? -1;
  });

/**
 * `![alt](src)`, `[text](href)`, `[text][ref]`: the label stays. As /!\[([^\]]*)\]\([^)]*\)/,
 * /\[([^\]]+)\]\([^)]*\)/ and /\[([^\]]+)\]\[[^\]]*\]/: the label runs to the first "]" (at least `minLabel`
 * characters), `targetOpen` follows it and the target runs to the first `targetClose`.
 */
function links(text: string, open: string, minLabel: number, targetOpen: string, targetClose: string) {
  if (!text.includes(open)) return text;
  const opener = finder(text, open);
  const labelEnd = finder(text, "]");
  const targetEnd = finder(text, targetClose);
  return replaceEach(text, (from) => {
    for (let at = opener(from); at !== -1; at = opener(at + 1)) {
      const label = at + open.length;
      const end = labelEnd(label);
      if (end === -1) return undefined; // no "]" further on: no later opener has one either
      if (end - label < minLabel || text[end + 1] !== targetOpen) continue;
      const close = targetEnd(end + 2);
      if (close === -1) return undefined;
      return { start: at, end: close + 1, text: text.slice(label, end) };
    }
    return undefined;
  });
}

/** `<https://...>`, `<mailto:...>`: the address stays. As /<((?:https?|mailto):[^>\s]+)>/. */
function autolinks(text: string) {
  if (!text.includes("<")) return text;
  const opener = finder(text, "<");
  const stop = classFinder(text, /[>\s]/g);
  const scheme = /(?:https?|mailto):/y;
  return replaceEach(text, (from) => {
    for (let at = opener(from); at !== -1; at = opener(at + 1)) {
      scheme.lastIndex = at + 1;
      if (!scheme.test(text)) continue;
      const address = scheme.lastIndex;
      const end = stop(address);
      if (end === -1) return undefined;
      if (end === address || text[end] !== ">") continue;
      return { start: at, end: end + 1, text: text.slice(at + 1, end) };
    }
    return undefined;
  });
}

// A line break or a block boundary (`</p>`, `<div class="x">`); the second kind runs to its ">".
const BREAKING_TAG = /(<br\s*\/?>)|<\/?(?:p|div|li|ul|ol|tr|td|th|table|h[1-6]|blockquote|dd|dt|hr)\b/iy;
const isSpace = (c: string | undefined) => c !== undefined && c !== "\n" && /\s/.test(c);

/**
 * One line end for a run of line breaks and block boundaries (`</p><div>`), with the spaces around them. As
 * (?:[^\S\n]*(?:<br\s*\/?>|<\/?(?:p|div|...)\b[^>]*>))+[^\S\n]* with the flags gi.
 */
function breakingTags(text: string) {
  if (!text.includes("<")) return text;
  const opener = finder(text, "<");
  const tagEnd = finder(text, ">");
  const endOf = (at: number) => {
    BREAKING_TAG.lastIndex = at;
    const tag = BREAKING_TAG.exec(text);
    if (!tag) return -1;
    if (tag[1]) return BREAKING_TAG.lastIndex;
    const close = tagEnd(BREAKING_TAG.lastIndex);
    return close === -1 ? -1 : close + 1;
  };
  return replaceEach(text, (from) => {
    for (let at = opener(from); at !== -1; at = opener(at + 1)) {
      let end = endOf(at);
      if (end === -1) continue;
      let start = at;
      while (start > from && isSpace(text[start - 1])) start--;
      for (;;) {
        let next = end;
        while (isSpace(text[next])) next++;
        const after = text[next] === "<" ? endOf(next) : -1;
        if (after === -1) return { start, end: next, text: "\n" };
        end = after;
      }
    }
    return undefined;
  });
}

/** Other inline HTML goes. As /<\/?[a-zA-Z][^>]*>/. */
function tags(text: string) {
  if (!text.includes("<")) return text;
  const opener = finder(text, "<");
  const close = finder(text, ">");
  return replaceEach(text, (from) => {
    for (let at = opener(from); at !== -1; at = opener(at + 1)) {
      const name = text[at + 1] === "/" ? at + 2 : at + 1;
      if (!/[a-zA-Z]/.test(text[name] ?? "")) continue;
      const end = close(name + 1);
      if (end === -1) return undefined;
      return { start: at, end: end + 1, text: "" };
    }
    return undefined;
  });
}

/** `` `code` ``: the code stays. As /`+([^`]+?)`+/: a run of backticks, then up to the next run. */
function codeSpans(text: string) {
  if (!text.includes("`")) return text;
  const opener = finder(text, "`");
  const closer = finder(text, "`");
  return replaceEach(text, (from) => {
    const at = opener(from);
    if (at === -1) return undefined;
    let code = at;
    while (text[code] === "`") code++;
    const close = code < text.length ? closer(code) : -1;
    if (close === -1) return undefined; // no backtick after this run: no later one starts a span
    let end = close;
    while (text[end] === "`") end++;
    return { start: at, end, text: text.slice(code, close) };
  });
}

const LINE_END = /[\n\r\u2028\u2029]/g;
const isNonSpace = (c: string | undefined) => c !== undefined && /\S/.test(c);

/**
 * `**bold**`, `__bold__`, `~~struck~~`: the words stay. As /(\*\*|__)(?=\S)(.+?)(?<=\S)\1/: the words start with a
 * non-space, stay on their line and end at the first closer of the same mark after a non-space. An opener without
 * one tells that no later opener of its mark on that line has one either, so the line is not read again for it.
 */
function emphasis(text: string, marks: string[]) {
  if (!marks.some((mark) => text.includes(mark))) return text;
  const lineEnd = classFinder(text, LINE_END);
  const kinds = marks.map((mark) => ({
    mark,
    opener: finder(text, mark),
    closer: finder(text, mark),
    unclosedBefore: -1,
  }));
  return replaceEach(text, (from) => {
    for (let search = from; ; ) {
      let kind: (typeof kinds)[number] | undefined;
      let at = -1;
      for (const k of kinds) {
        const found = k.opener(search);
        if (found !== -1 && (at === -1 || found < at)) [kind, at] = [k, found];
      }
      if (!kind) return undefined;
      search = at + 1;
      const words = at + kind.mark.length;
      if (words < kind.unclosedBefore || !isNonSpace(text[words])) continue;
      const line = lineEnd(words);
      const limit = line === -1 ? text.length : line;
      for (let close = kind.closer(words + 1); close !== -1 && close < limit; close = kind.closer(close + 1)) {
        if (isNonSpace(text[close - 1])) {
          return { start: at, end: close + kind.mark.length, text: text.slice(words, close) };
        }
      }
      kind.unclosedBefore = limit;
    }
  });
}
