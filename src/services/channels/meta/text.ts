// A reply as Meta's three apps show it: plain text with links written out (none of them renders
// Markdown sent through the API), split at each one's limit, and the conversation starters as
// quick replies or buttons with their short titles.
import { splitMessage, toPlainText, withCitations } from "../markdown";
import type { OutboundMessage } from "../types";

/**
 * Whether a reply comes more than 24 hours after the person's last message: past Meta's window, in which its apps
 * take a free answer (Messenger and Instagram then want a tag, WhatsApp an approved template).
 */
export const pastWindow = (message: Pick<OutboundMessage, "at" | "lastInboundAt">) =>
  message.at - message.lastInboundAt > 24 * 3600_000;

/** The reply's parts as plain text, each at most `limit` UTF-16 units: the Markdown split first, then rendered
 * (markdown.ts). */
export function plainParts(message: Pick<OutboundMessage, "text" | "citations">, limit: number): string[] {
  return splitMessage(withCitations(message.text, message.citations), limit)
    .map(toPlainText)
    .filter((part) => part.trim());
}

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/**
 * Parts of at most `maxBytes` UTF-8 bytes (Instagram counts bytes: 1000, so about 330 Japanese
 * characters): a part over it is split again at a limit in units scaled by its bytes per unit.
 */
export function fitBytes(parts: string[], maxBytes: number): string[] {
  return parts.flatMap((part) => {
    const bytes = utf8Length(part);
    if (bytes <= maxBytes) return [part];
    const limit = Math.max(1, Math.floor((part.length * maxBytes) / bytes));
    return fitBytes(splitMessage(part, limit), maxBytes);
  });
}

/** What a tapped quick reply sends back carries the whole starter after this mark (the title may be cut). */
export const QUICK_REPLY_MARK = "qr:";

/** The text a tapped quick reply stands for: the whole starter from our payload, else what the button said. */
export const tappedText = (payload: unknown, title: string) =>
  typeof payload === "string" && payload.startsWith(QUICK_REPLY_MARK) ? payload.slice(QUICK_REPLY_MARK.length) : title;

/**
 * Up to `max` starters with distinct titles of at most `titleLimit` characters (a longer one ends
 * with "…"), each with its whole text in a payload of at most `payloadLimit`.
 */
export function quickReplyChoices(starters: string[], max: number, titleLimit: number, payloadLimit: number) {
  const seen = new Set<string>();
  const choices: { title: string; payload: string }[] = [];
  for (const starter of starters.map((s) => s.trim()).filter(Boolean)) {
    const chars = [...starter];
    const title =
      chars.length > titleLimit
        ? `${chars
            .slice(0, titleLimit - 1)
            .join("")
            .trimEnd()}…`
        : starter;
    if (seen.has(title)) continue;
    seen.add(title);
    choices.push({ title, payload: `${QUICK_REPLY_MARK}${starter}`.slice(0, payloadLimit) });
    if (choices.length === max) break;
  }
  return choices;
}

/** The file name at the end of a URL's path, when it looks like one. */
export function fileNameOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const segment = new URL(url).pathname.split("/").pop() ?? "";
  let last: string;
  try {
    last = decodeURIComponent(segment);
  } catch {
    last = segment; // a stray % in a CDN path: the name as it is written
  }
  return /\.[a-z0-9]{1,8}$/i.test(last) ? last : undefined;
}
