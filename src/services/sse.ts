import { isD1Error } from "../lib/errors";
import { logError } from "../lib/log";

const encoder = new TextEncoder();
const PING_EVERY_MS = 10_000;

/** One server-sent event in its wire form: `event:` (when named), `data:` with the JSON, a blank line. */
export const eventText = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

/**
 * A server-sent event stream written by a producer that must not wait for a slow reader: writes
 * are queued, never awaited, so a reply is generated and stored at full speed even when the
 * client reads slowly or has gone. A `: ping` comment every 10 s keeps proxies from timing out.
 */
export class SseWriter {
  readonly readable: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #ping: ReturnType<typeof setInterval>;
  #closed = false;
  #opened!: () => void;
  /** Settles when `open` is called or the first event, comment or close is written. */
  readonly opened = new Promise<void>((resolve) => (this.#opened = resolve));

  constructor(private readonly onClose?: () => void) {
    // Events are enqueued on the stream itself, not written through a TransformStream's writer: no
    // write promise and no transform step per event, on the one thread that also carries the reply
    // (docs/decisions.md, "Streaming latency"). A reader that goes away cancels it: writing stops.
    this.readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.close(),
    });
    this.#ping = setInterval(() => this.#raw(": ping\n\n"), PING_EVERY_MS);
  }

  /** Marks the stream as under way without writing to it (see `opened`). */
  open() {
    this.#opened();
  }

  send(data: unknown, event?: string) {
    this.#raw(eventText(data, event));
  }

  /** An event already in its wire form (`data: ...` and the blank line). */
  sendEncoded(event: string) {
    this.#raw(event);
  }

  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#opened();
    clearInterval(this.#ping);
    this.onClose?.();
    try {
      this.#controller.close();
    } catch {
      // Already cancelled by its reader.
    }
  }

  #raw(text: string) {
    if (this.#closed) return;
    this.#opened();
    try {
      this.#controller.enqueue(encoder.encode(text));
    } catch {
      this.close(); // the stream errored or was cancelled
    }
  }
}

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  "X-Accel-Buffering": "no",
};

/**
 * A conversation object's event stream as a client gets it. Should the object be reset mid-reply
 * (a deploy, a crash: its stream then breaks), the client is told with a last `event: error`
 * carrying the request id, rather than a connection that breaks for no stated reason. The reply
 * was not stored (replies are stored whole); the visitor's message is stored unless the object
 * died within its first 20 ms (docs/decisions.md, "Conversations and the Durable Object").
 */
export function interruptible(source: ReadableStream<Uint8Array>, requestId: string): ReadableStream<Uint8Array> {
  // workerd's own identity stream: the pipe from the object runs natively, no JavaScript per chunk.
  const { readable, writable } = new IdentityTransformStream();
  source.pipeTo(writable, { preventAbort: true }).catch(async () => {
    const writer = writable.getWriter();
    const data = {
      detail: "The reply was interrupted and not stored; the conversation's messages show what was.",
      code: "reply_interrupted",
      requestId,
    };
    await writer.write(encoder.encode(eventText(data, "error"))).catch(() => undefined);
    await writer.close().catch(() => undefined);
  });
  return readable;
}

/** How a stream ends whose reader's access could not be checked. */
const UNCHECKED = {
  code: "server_error",
  detail: "Whether this stream may still be read could not be checked; open it again.",
};

/**
 * `source` as its reader gets it, until `ended()` (asked every `everyMs`, the next time once the
 * last answer is in) gives a reason: then a last `event: error` `{detail, code}`, the end of the
 * stream, and `source` cancelled (a hub drops the subscriber). A check D1 failed counts as no reason: it is asked
 * again next time. Any other failure is a check that cannot be made: logged, and the stream ends (a reader whose access
 * goes unchecked does not keep reading).
 */
export function endedWhen(
  source: ReadableStream<Uint8Array>,
  ended: () => Promise<{ code: string; detail: string } | null>,
  everyMs: number,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const stop = () => {
    closed = true;
    clearTimeout(timer);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const check = async () => {
        const end = await ended().catch((err) => {
          if (isD1Error(err)) return null;
          logError("stream's access not checked", { error: String(err) });
          return UNCHECKED;
        });
        if (closed) return;
        if (!end) return void (timer = setTimeout(check, everyMs));
        stop();
        controller.enqueue(encoder.encode(eventText(end, "error")));
        controller.close();
        reader.cancel().catch(() => undefined);
      };
      timer = setTimeout(check, everyMs);
    },
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (closed) return;
        if (done) {
          stop();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        if (closed) return;
        stop();
        throw err;
      }
    },
    cancel(reason) {
      stop();
      return reader.cancel(reason);
    },
  });
}

/**
 * A stream of server-sent events taken event by event: `onEvent` gets each event's text (without the blank line that
 * ends it) and enqueues what it makes of it, or ends the stream; `onRest` gets what is left after the last one.
 */
export function eachEvent(
  source: ReadableStream<Uint8Array>,
  onEvent: (block: string, controller: TransformStreamDefaultController<Uint8Array>) => void,
  onRest?: (rest: string, controller: TransformStreamDefaultController<Uint8Array>) => void,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = "";
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          onEvent(block, controller);
        }
      },
      flush(controller) {
        onRest?.(buffer, controller);
      },
    }),
  );
}
