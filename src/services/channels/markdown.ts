// A reply is stored as Markdown; each platform shows something else (CONTRACT section 17): Telegram
// a subset of HTML, Slack its mrkdwn, LINE, WhatsApp, Messenger, Instagram and e-mail's text part
// plain text with links written out. Long replies are split at the platform's limit, between
// paragraphs, lines, sentences or words, in that order of preference, before they are rendered (so no
// split cuts an HTML tag or an escape).

import { cutIndex } from "../../lib/text";

/** Inline Markdown: code spans, links, bold, italic, strike (what model replies use). */
type Inline = {
  code: (s: string) => string;
  link: (text: string, url: string) => string;
  bold: (s: string) => string;
  italic: (s: string) => string;
  strike: (s: string) => string;
  text: (s: string) => string;
};

/** Inline Markdown, one alternative per form; the groups, in order, are what inline() reads as m[1] to m[8]. */
const INLINE = new RegExp(
  [
    /`([^`\n]+)`/, // code: 1
    /!?\[([^\]\n]*)\]\(\s*<?([^()\s>]+)>?(?:\s+"[^"]*")?\s*\)/, // link or image: text 2, URL 3 (a title is left out)
    /\*\*([^*\n]+?)\*\*/, // bold: 4
    /__([^_\n]+?)__/, // bold: 5
    /(?<![\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?![\w*])/, // italic: 6
    /(?<![\w_])_(?!\s)([^_\n]+?)(?<!\s)_(?![\w_])/, // italic: 7
    /~~([^~\n]+?)~~/, // strike: 8
  ]
    .map((r) => r.source)
    .join("|"),
  "g",
);

function inline(line: string, r: Inline): string {
  let out = "";
  let at = 0;
  for (const m of line.matchAll(INLINE)) {
    out += r.text(line.slice(at, m.index));
    at = m.index! + m[0].length;
    if (m[1] !== undefined) out += r.code(m[1]);
    else if (m[3] !== undefined) out += r.link(m[2] || m[3], m[3]);
    else if (m[4] !== undefined || m[5] !== undefined) out += r.bold(inline(m[4] ?? m[5], r));
    else if (m[6] !== undefined || m[7] !== undefined) out += r.italic(inline(m[6] ?? m[7], r));
    else out += r.strike(inline(m[8], r));
  }
  return out + r.text(line.slice(at));
}

interface Block {
  line: (s: string) => string;
  heading: (s: string) => string;
  bullet: (s: string) => string;
  fence: (code: string) => string;
}

function blocks(markdown: string, r: Inline, b: Block): string {
  const out: string[] = [];
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      const code: string[] = [];
      while (++i < lines.length && !lines[i].trimStart().startsWith(fence[1])) code.push(lines[i]);
      out.push(b.fence(code.join("\n")));
      continue;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      out.push(b.heading(inline(heading[1], r)));
      continue;
    }
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
    if (bullet) {
      out.push(bullet[1] + b.bullet(inline(bullet[2], r)));
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push("");
      continue;
    }
    out.push(b.line(inline(line.replace(/^\s{0,3}>\s?/, ""), r)));
  }
  return out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const same = (s: string) => s;

/** Plain text: emphasis dropped, links as "text (url)", bullets as "•". */
export function toPlainText(markdown: string): string {
  const r: Inline = {
    code: same,
    text: same,
    bold: same,
    italic: same,
    strike: same,
    link: (text, url) => (text === url ? url : `${text} (${url})`),
  };
  return blocks(markdown, r, { line: same, heading: same, bullet: (s) => `• ${s}`, fence: same });
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const safeUrl = (url: string) => (/^(https?:|mailto:|tg:)/i.test(url) ? url : null);

/** Telegram's HTML parse mode: <b>, <i>, <s>, <code>, <pre>, <a href>; everything else escaped. */
export function toTelegramHtml(markdown: string): string {
  const r: Inline = {
    text: escapeHtml,
    code: (s) => `<code>${escapeHtml(s)}</code>`,
    bold: (s) => `<b>${s}</b>`,
    italic: (s) => `<i>${s}</i>`,
    strike: (s) => `<s>${s}</s>`,
    link: (text, url) =>
      safeUrl(url) ? `<a href="${escapeHtml(url).replace(/"/g, "&quot;")}">${escapeHtml(text)}</a>` : escapeHtml(text),
  };
  return blocks(markdown, r, {
    line: same,
    heading: (s) => `<b>${s}</b>`,
    bullet: (s) => `• ${s}`,
    fence: (code) => `<pre>${escapeHtml(code)}</pre>`,
  });
}

/** Slack's mrkdwn: *bold*, _italic_, ~strike~, `code`, <url|text>; &, < and > escaped. */
export function toSlackMrkdwn(markdown: string): string {
  const r: Inline = {
    text: escapeHtml,
    code: (s) => `\`${escapeHtml(s)}\``,
    bold: (s) => `*${s}*`,
    italic: (s) => `_${s}_`,
    strike: (s) => `~${s}~`,
    link: (text, url) =>
      safeUrl(url)
        ? `<${url.replace(/[|>]/g, encodeURIComponent)}|${escapeHtml(text).replace(/\|/g, "¦")}>`
        : escapeHtml(text),
  };
  return blocks(markdown, r, {
    line: same,
    heading: (s) => `*${s}*`,
    bullet: (s) => `• ${s}`,
    fence: (code) => `\`\`\`\n${escapeHtml(code)}\n\`\`\``,
  });
}

/** Sources as a list of links after the reply, in Markdown (then rendered like the rest). */
export function withCitations(markdown: string, citations: { title: string; url: string }[]): string {
  const links = citations.filter((c) => safeUrl(c.url));
  if (!links.length) return markdown;
  const seen = new Set<string>();
  const lines = links
    .filter((c) => !seen.has(c.url) && seen.add(c.url))
    .map((c) => `- [${(c.title || c.url).replace(/[[\]]/g, "")}](${c.url})`);
  return `${markdown}\n\n${lines.join("\n")}`;
}

const BREAKS = [/\n\s*\n/g, /\n/g, /(?<=[.!?。！？])\s+/g, /\s+/g];

/**
 * The Markdown's parts (splitMessage) that show something once rendered: a rule or an empty code block alone renders
 * to nothing, which Telegram and Slack refuse as a message.
 */
export const shownParts = (markdown: string, limit: number) =>
  splitMessage(markdown, limit).filter((part) => toPlainText(part).trim());

/**
 * Parts of at most `limit` characters (UTF-16 units, what the platforms count), cut at the latest
 * paragraph break, else line break, else sentence end, else space within the limit; a word longer
 * than the limit is cut where it must be (never inside a surrogate pair).
 */
export function splitMessage(text: string, limit: number): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    let cut = -1;
    for (const pattern of BREAKS) {
      pattern.lastIndex = 0;
      for (const m of rest.matchAll(pattern)) {
        if (m.index! > limit) break;
        if (m.index! > 0) cut = m.index!;
      }
      if (cut > limit / 4) break;
    }
    if (cut <= 0) cut = cutIndex(rest, limit);
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}
