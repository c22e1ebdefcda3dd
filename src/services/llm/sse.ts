/** One server-sent event: its `event` name (null for the default "message") and its joined `data` lines. */
export interface SseEvent {
  event: string | null;
  data: string;
}

/**
 * Parses a text/event-stream as it arrives (WHATWG rules): events may be split across reads or
 * share one; lines end in LF, CRLF or CR; `:` lines are comments; multi-line data is joined by LF.
 * Yields each event as soon as its blank line is read, so nothing waits for the end of the stream.
 */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** The push parser behind `parseSse`, usable on strings (and in unit tests). */
export class SseParser {
  private buffer = "";
  private event: string | null = null;
  private data: string[] = [];
  private pendingCr = false;

  /** Feeds decoded text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    if (!text) return [];
    if (this.pendingCr && text.startsWith("\n")) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const out: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A CR at the very end may be the first half of a CRLF split across reads.
      if (match[0] === "\r" && match.index === this.buffer.length - 1) {
        this.pendingCr = true;
      }
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) out.push(event);
    }
    return out;
  }

  /** Ends the stream: a last event without its blank line still counts. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buffer) {
      const event = this.line(this.buffer);
      this.buffer = "";
      if (event) out.push(event);
    }
    const last = this.dispatch();
    if (last) out.push(last);
    return out;
  }

  private line(line: string): SseEvent | null {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    return null;
  }

  private dispatch(): SseEvent | null {
    const event = this.data.length ? { event: this.event, data: this.data.join("\n") } : null;
    this.data = [];
    this.event = null;
    return event;
  }
}
