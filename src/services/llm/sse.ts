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
