// What an e-mail inbox reads and writes besides the parsing itself (postal-mime does that): the new
// text of a reply without the history it quotes, and the reply's MIME. The MIME is written here, not
// with mimetext: a multipart/alternative with two base64 parts and a few headers is short, and
// mimetext costs 55 KB (browser build, core-js polyfills) or 160 KB (node build, mime-db), and its
// node build ends lines with os.EOL ("\n") where RFC 5322 asks for CRLF.
import { toTelegramHtml } from "./markdown";
import { ownValue } from "../../lib/json";
import { toBase64 } from "../../lib/base64";
import { withoutFooter } from "./email-footer";

/** The Message-IDs in a header (Message-ID, In-Reply-To, References), angle brackets kept, in order. */
export function messageIds(header: string | undefined): string[] {
  return header?.match(/<[^<>\s]+>/g) ?? [];
}

/** "Re: " once, whatever the subject already starts with (Re:, RE:, Fwd: Re: stays as it is). */
export function replySubject(subject: string | undefined): string {
  const s = (subject ?? "").trim();
  if (!s) return "Re: your message";
  return /^re\s*(\[\d+\])?\s*:/i.test(s) ? s : `Re: ${s}`;
}

/** The subject without its Re:/Fwd: prefixes (the text of a message whose body is empty). */
export const bareSubject = (subject: string | undefined) =>
  (subject ?? "").replace(/^((re|fwd?|aw|wg|sv|vs)\s*(\[\d+\])?\s*:\s*)+/i, "").trim();

/**
 * The attribution line a client puts above the history it quotes ("On Mon, 2 Dec 2024 at 10:00,
 * Jane <jane@example.com> wrote:", in the languages of the common clients), and Outlook's
 * separators. Gmail wraps a long attribution over two lines, so two lines are tried joined.
 */
const ATTRIBUTION = [
  /^on\b.{0,300}\bwrote:\s*$/i,
  /^le\b.{0,300}\ba écrit\s*:\s*$/i,
  /^am\b.{0,300}\bschrieb\b.{0,200}:\s*$/i,
  /^el\b.{0,300}\bescribió:\s*$/i,
  /^\d{4}年\d{1,2}月\d{1,2}日.{0,200}[<＜][^>＞]+[>＞].{0,20}[:：]\s*$/,
  /^.{0,300}(写道|寫道)[:：]\s*$/,
  /^.{0,300}님이\s*작성\s*[:：]\s*$/,
  /^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|mensaje original)\s*-{2,}\s*$/i,
  /^-{2,}\s*(元のメッセージ|原始郵件|原始邮件|원본 메시지)\s*-{2,}\s*$/,
];
/**
 * Outlook's block above the history it does not quote ("From: ..." then "Sent: ..."), in the languages of the common
 * clients: Chinese, Spanish and Korean ones put the whole history, our own answer with it, into the visitor's text.
 */
const OUTLOOK_HEADER = /^(from|von|de|da|van|差出人|寄件者|发件人|發件人|보낸\s*사람)\s*[:：]\s*.+$/i;
const OUTLOOK_NEXT =
  /^(sent|gesendet|envoyé|enviado|enviada em|inviato|verzonden|送信日時|寄件日期|发送时间|發送時間|보낸\s*날짜|date|to)\s*[:：]/i;

/**
 * The text someone wrote in a reply: the quoted history removed (lines starting with ">" and the
 * attribution line above them), so the assistant reads only the new message. Where the history is
 * not marked with ">" (a reply written in HTML, Outlook's "From: ... Sent: ..." block), everything
 * from the attribution on is history: clients put their reply above it. A signature (under its "-- " line)
 * is kept: it is the visitor's own (a phone number, a company) and the team may need it. The mail app's footer at the
 * end ("Sent from my iPhone") is not: it says nothing the visitor meant to say.
 */
export function newText(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const quoted = (line: string) => /^\s*>/.test(line);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const joined = i + 1 < lines.length ? `${line} ${lines[i + 1].trim()}` : line;
    const attribution = ATTRIBUTION.some((p) => p.test(line)) ? 1 : ATTRIBUTION.some((p) => p.test(joined)) ? 2 : 0;
    const outlook =
      OUTLOOK_HEADER.test(line) &&
      i + 1 < lines.length &&
      OUTLOOK_NEXT.test(lines[i + 1].trim()) &&
      out.some((l) => l.trim());
    if (attribution || outlook) {
      const rest = lines.slice(i + Math.max(attribution, 1));
      // Interleaved answers between quoted lines are kept; history that is not quoted ends the text.
      if (
        attribution &&
        rest.some(quoted) &&
        rest.filter((l) => l.trim()).every((l) => quoted(l) || !ATTRIBUTION.some((p) => p.test(l.trim())))
      ) {
        i += attribution - 1;
        continue;
      }
      break;
    }
    if (!quoted(lines[i])) out.push(lines[i]);
  }
  return tidy(withoutFooter(out).join("\n"));
}

const tidy = (text: string) =>
  text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();

/**
 * A subject saying its message forwards another (Fwd:, FW:, and the prefixes Outlook writes in other languages): the
 * first prefix only, so "Re: Fwd: ..." is a reply.
 */
export const isForward = (subject: string | undefined) =>
  /^\s*(fwd?|wg|tr|rv|enc|转发|轉寄|転送|전달)\s*[:：]/i.test(subject ?? "");

/**
 * The text of a forward, whole: its header block ("From: ... Sent: ...", Gmail's "Forwarded message") and the mail
 * under it are what the visitor sends, not this thread's history, and were cut as such by `newText`.
 */
export const forwardedText = (text: string) => tidy(text);

const ENTITIES: Record<string, string> = {
  ...{ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", hellip: "…", ndash: "–", mdash: "—" },
  ...{ lsquo: "‘", rsquo: "’", ldquo: "“", rdquo: "”", copy: "©", reg: "®", euro: "€", yen: "¥" },
};

const decodeEntities = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    // Own keys only: a sender's "&constructor;" is no entity.
    if (name[0] !== "#") return ownValue(ENTITIES, name.toLowerCase()) ?? whole;
    const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });

/**
 * `html` without its blockquote elements, each on its own with the ones nested in it: an answer written between two
 * quotes is the visitor's, and one removal from the first opening tag to the last closing one took it away. What
 * follows a blockquote never closed is kept (it may be the visitor's words); a stray closing tag goes with the tags.
 */
function withoutBlockquotes(html: string): string {
  let kept = "";
  let from = 0;
  let depth = 0;
  for (const tag of html.matchAll(/<(\/?)blockquote\b[^>]*>/gi)) {
    if (!tag[1]) {
      if (depth++ > 0) continue;
      kept += html.slice(from, tag.index);
      from = tag.index;
    } else if (depth > 0 && --depth === 0) from = tag.index + tag[0].length;
  }
  return kept + html.slice(from);
}

/**
 * The text of a message sent as HTML alone (postal-mime gives no text part then): the quoted history
 * (blockquote, Gmail's and Outlook's quote containers) left out unless it is what a forward forwards (`forward`),
 * blocks as lines, links written out.
 */
export function htmlToText(html: string, forward = false): string {
  const withoutHistory = (h: string) =>
    withoutBlockquotes(h).replace(/<div\b[^>]*\b(gmail_quote|divRplyFwdMsg|moz-cite-prefix)\b[\s\S]*$/i, "");
  const body = html.replace(/<(head|style|script|title)\b[\s\S]*?<\/\1\s*>/gi, "");
  return decodeEntities(
    (forward ? body : withoutHistory(body))
      .replace(/\s*\n\s*/g, " ")
      .replace(/<a\b[^>]*\bhref\s*=\s*["']?([^"'\s>]+)[^>]*>([\s\S]*?)<\/a\s*>/gi, (_, url: string, text: string) => {
        const t = text.replace(/<[^>]*>/g, "").trim();
        return !t || t === url || /^mailto:/i.test(url) ? t || url : `${t} (${url})`;
      })
      .replace(/<br\b[^>]*>/gi, "\n")
      .replace(/<li\b[^>]*>/gi, "\n• ")
      .replace(/<\/?(p|div|tr|table|ul|ol|h[1-6]|pre|section|article|header|footer)\b[^>]*>/gi, "\n")
      .replace(/<[^>]*>/g, ""),
  )
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The reply's HTML part: Telegram's HTML subset (bold, italic, code, links; every other character
 * escaped) in paragraphs, line breaks kept, code blocks as they are.
 */
export function toEmailHtml(markdown: string): string {
  const body = toTelegramHtml(markdown)
    .split(/(<pre>[\s\S]*?<\/pre>)/)
    .map((part) =>
      part.startsWith("<pre>")
        ? part
        : part
            .split(/\n{2,}/)
            .map((p) => p.trim())
            .filter(Boolean)
            .map((p) => `<p>${p.replace(/\n/g, "<br>\n")}</p>`)
            .join("\n"),
    )
    .join("\n");
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"></head><body>\n${body}\n</body></html>`;
}

/** A header value as RFC 2047 encoded words where it is not plain ASCII (each word under 76 characters). */
export function encodeWord(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : encodedWords(value);
}

/** `value` as RFC 2047 encoded words, one per line of the header. */
function encodedWords(value: string): string {
  const words: string[] = [];
  let chunk = "";
  for (const ch of value) {
    // 45 bytes of UTF-8 make 60 base64 characters, 72 with =?utf-8?B?...?=.
    if (new TextEncoder().encode(chunk + ch).length > 45) {
      words.push(chunk);
      chunk = "";
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?utf-8?B?${toBase64(w)}?=`).join("\r\n ");
}

/**
 * A header of unstructured text (the subject), folded at its spaces (RFC 5322 2.2.3) into lines of 78 characters where
 * its words allow: a line is never longer than 998 characters, and a subject as long as a ticket system's or a
 * forwarded chain's went out as one line of 1,200, which a receiving server may refuse or cut. A value that is not
 * ASCII, or has a word too long for a line, goes as encoded words.
 */
function unstructuredHeader(name: string, value: string): string {
  const words = value.replace(/\s+/g, " ").trim().split(" ");
  if (!/^[\x20-\x7e]*$/.test(value) || words.some((w) => w.length > 900)) return `${name}: ${encodedWords(value)}`;
  const lines = [`${name}:`];
  for (const word of words) {
    const last = lines.length - 1;
    if (lines[last].length + 1 + word.length > 78 && lines[last].trim() !== `${name}:`) lines.push(` ${word}`);
    else lines[last] += ` ${word}`;
  }
  return lines.join("\r\n");
}

/** `"Name" <address>`, the name encoded where it must be. */
export function formatAddress(address: string, name?: string): string {
  const n = name?.replace(/[\r\n]+/g, " ").trim();
  if (!n) return `<${address}>`;
  return /^[\x20-\x7e]*$/.test(n) ? `"${n.replace(/(["\\])/g, "\\$1")}" <${address}>` : `${encodeWord(n)} <${address}>`;
}

const wrap76 = (s: string) => s.replace(/.{1,76}/g, "$&\r\n");

export interface ReplyMime {
  from: string;
  fromName?: string;
  to: string;
  toName?: string;
  subject: string;
  messageId: string;
  inReplyTo?: string;
  references: string[];
  text: string;
  html: string;
  date?: Date;
  /** Written by the assistant, not by a person of the team. */
  automatic?: boolean;
}

/** The reply as RFC 5322 text: CRLF lines, a text/plain and a text/html part, both UTF-8 in base64. */
export function replyMime(m: ReplyMime): string {
  const boundary = `=_reply_${crypto.randomUUID().replace(/-/g, "")}`;
  const headers = [
    `From: ${formatAddress(m.from, m.fromName)}`,
    `To: ${formatAddress(m.to, m.toName)}`,
    unstructuredHeader("Subject", m.subject),
    `Message-ID: ${m.messageId}`,
    `Date: ${(m.date ?? new Date()).toUTCString().replace(/GMT$/, "+0000")}`,
    ...(m.inReplyTo ? [`In-Reply-To: ${m.inReplyTo}`] : []),
    ...(m.references.length ? [`References: ${m.references.join("\r\n ")}`] : []),
    // The assistant's answers are automatic (RFC 3834): another robot reading them, an auto-responder or an inbox
    // of this platform (which sets such mail aside), does not answer them back.
    ...(m.automatic ? ["Auto-Submitted: auto-replied"] : []),
    "MIME-Version: 1.0",
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
  ];
  const part = (type: string, body: string) =>
    [
      `--${boundary}`,
      `Content-Type: ${type}; charset=utf-8`,
      "Content-Transfer-Encoding: base64",
      "",
      wrap76(toBase64(body)),
    ].join("\r\n");
  return [...headers, "", part("text/plain", m.text), part("text/html", m.html), `--${boundary}--`, ""].join("\r\n");
}
