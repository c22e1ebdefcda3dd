// The gateway's text/event-stream response: its own writer, as it streams OpenAI's chunks rather
// than a conversation's events.
import { SSE_HEADERS } from "../sse";

const encoder = new TextEncoder();

const PING_MS = 10_000;

/**
 * A text/event-stream response written by `run` through `send`, each event flushed as it is sent.
 * A `: ping` comment goes out every 10 s, so proxies keep a slow answer's connection open.
 * When the client goes away, `abort` is aborted (the model stops) and later sends are dropped.
 * `finished` settles with `run`'s result once it ends; `run` reports its own failures in the stream.
 */
export function eventStream<T>(abort: AbortController, run: (send: (text: string) => void) => Promise<T>) {
  let closed = false;
  let finished!: Promise<T>;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const ping = setInterval(() => send(": ping\n\n"), PING_MS);
      finished = run(send).finally(() => {
        clearInterval(ping);
        if (!closed) {
          closed = true;
          controller.close();
        }
      });
    },
    cancel() {
      closed = true;
      abort.abort();
    },
  });
  return { response: new Response(body, { headers: SSE_HEADERS }), finished };
}
