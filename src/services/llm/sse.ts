import { createParser } from "eventsource-parser";

/** One server-sent event: its `event` name (null for the default "message") and its `data`. */
export interface SseEvent {
  event: string | null;
  data: string;
}

/**
 * Reads an upstream text/event-stream with `eventsource-parser`, yielding each event as soon as its
 * blank line is read. Unlike a browser's EventSource, a last event whose blank line never came (a
 * truncated stream) is still yielded: callers decide whether the stream was complete.
 */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const ready: SseEvent[] = [];
  const parser = createParser({ onEvent: (e) => ready.push({ event: e.event ?? null, data: e.data }) });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      yield* ready.splice(0);
    }
    // The blank lines end a pending line and dispatch a pending event.
    parser.feed(`${decoder.decode()}\n\n`);
    yield* ready.splice(0);
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** Tab, LF, CR and space: what may come before a JSON body's first character. */
const BLANK = new Set([0x09, 0x0a, 0x0d, 0x20]);

/**
 * Whether a body whose Content-Type does not tell is one JSON object (its first character other than white space is
 * "{", which no line of an event stream starts with), and the body again, whole: what was read to tell comes first,
 * then the rest, so an event stream is still read as it arrives.
 */
export async function startsAsJsonObject(
  body: ReadableStream<Uint8Array>,
): Promise<{ json: boolean; body: ReadableStream<Uint8Array> }> {
  const reader = body.getReader();
  const read: Uint8Array[] = [];
  let first: number | undefined;
  while (first === undefined) {
    const { done, value } = await reader.read();
    if (done) break;
    read.push(value);
    first = value.find((byte) => !BLANK.has(byte));
  }
  const again = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = read.shift();
      if (next) return controller.enqueue(next);
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { json: first === 0x7b, body: again };
}
