import type { WebChatSettings } from "../../db/schema";
import type { MessageRecord } from "../records/messages";
import type { MessageRow } from "../conversations";
import { eachEvent, eventText } from "../sse";
import { publicMessage } from "../records/widget";

const encoder = new TextEncoder();

/**
 * Rewrites a reply's event stream (CONTRACT section 7) for the widget: every reply event gets an
 * `id: <messageId>:<characters so far>` (what `Last-Event-ID` names on reconnection: the
 * widget's resume route, routes/widget/resume.ts, answers from there), the final `message` record becomes the public
 * one, and tool events pass only
 * when the web chat shows tool results. Comments (pings) pass as they are.
 */
export function widgetEvents(
  source: ReadableStream<Uint8Array>,
  settings: WebChatSettings,
  startOffset = 0,
): ReadableStream<Uint8Array> {
  let offset = startOffset;
  const rewrite = (block: string): string | null => {
    const lines = block.split("\n");
    const event = lines
      .find((l) => l.startsWith("event:"))
      ?.slice(6)
      .trim();
    const dataLines = lines.filter((l) => l.startsWith("data:"));
    if (!dataLines.length) return `${block}\n\n`;
    if (event === "tool_call" || event === "tool_result")
      return settings.enableDisplayToolResults ? `${block}\n\n` : null;
    if (event && event !== "message") return `${block}\n\n`;
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(dataLines.map((l) => l.slice(5).trimStart()).join("\n"));
    } catch {
      return `${block}\n\n`;
    }
    return replyEvent(data, settings, (n) => (offset += n));
  };
  return eachEvent(
    source,
    (block, controller) => {
      const out = rewrite(block);
      if (out) controller.enqueue(encoder.encode(out));
    },
    (rest, controller) => {
      if (rest.trim()) controller.enqueue(encoder.encode(`${rest}\n\n`));
    },
  );
}

/** One reply event in the widget's form; `advance` adds the delta's length and returns the new offset. */
export function replyEvent(
  data: Record<string, unknown>,
  settings: WebChatSettings,
  advance: (n: number) => number,
): string {
  const content = typeof data.content === "string" ? data.content : "";
  const at = advance(content.length);
  const out: Record<string, unknown> = {
    conversationId: data.conversationId,
    messageId: data.messageId,
    content,
    done: !!data.done,
  };
  if (data.done) out.message = data.message ? publicMessage(data.message as MessageRecord, settings) : null;
  const id = data.messageId ? `id: ${data.messageId}:${data.done ? "done" : at}\n` : "";
  return `${id}data: ${JSON.stringify(out)}\n\n`;
}

/**
 * A reply already stored, resumed after `offset` characters: its remaining text (if any) and the
 * final event at once, numbered like `widgetEvents`.
 */
export function storedReplyEvents(
  conversationId: string,
  stored: MessageRow,
  offset: number,
  settings: WebChatSettings,
): string {
  let seen = Math.min(offset, stored.content.length);
  const rest = stored.content.slice(seen);
  return (
    (rest
      ? replyEvent({ conversationId, messageId: stored.id, content: rest, done: false }, settings, (n) => (seen += n))
      : "") +
    replyEvent({ conversationId, messageId: stored.id, content: "", done: true, message: stored }, settings, () => seen)
  );
}

/** `<messageId>:<offset>` or `<messageId>:done`, as `widgetEvents` numbers reply events. */
export function parseEventId(value: string | undefined | null): { messageId: string; offset: number | "done" } | null {
  const match = value?.trim().match(/^([0-9a-fA-F-]{36}):(\d{1,9}|done)$/);
  if (!match) return null;
  return { messageId: match[1].toLowerCase(), offset: match[2] === "done" ? "done" : Number(match[2]) };
}

/**
 * A reply stream resumed after `offset` characters, from the conversation object's `follow`
 * subscription: the text the client missed, every later delta and the final record, numbered like
 * `widgetEvents`, so the client neither loses nor repeats text. Other messages' events are left out.
 */
export function followEvents(
  source: ReadableStream<Uint8Array>,
  messageId: string,
  offset: number,
  settings: WebChatSettings,
): ReadableStream<Uint8Array> {
  let seen = 0;
  let first = true;
  return eachEvent(source, (block, controller) => {
    const event = block.match(/^event: (\w+)/m)?.[1];
    const raw = block.match(/^data: (.*)$/m)?.[1];
    if (!raw) return;
    const data = JSON.parse(raw) as Record<string, unknown>;
    const id = event === "message" ? data.id : data.messageId;
    if (id !== messageId) return;
    if (event === "delta") {
      let content = String(data.content ?? "");
      // The first event holds the whole text so far: only what the client has not seen goes out.
      if (first) content = content.slice(Math.min(offset, content.length));
      first = false;
      seen = seen || offset;
      if (!content) return;
      controller.enqueue(
        encoder.encode(
          replyEvent(
            { conversationId: data.conversationId, messageId, content, done: false },
            settings,
            (n) => (seen += n),
          ),
        ),
      );
    } else if (event === "message") {
      controller.enqueue(
        encoder.encode(
          replyEvent(
            { conversationId: data.conversation, messageId, content: "", done: true, message: data },
            settings,
            () => seen,
          ),
        ),
      );
      controller.terminate();
    } else if (event === "reply_failed") {
      controller.enqueue(encoder.encode(eventText({ detail: "The reply failed.", code: "upstream_error" }, "error")));
      controller.terminate();
    }
  });
}
