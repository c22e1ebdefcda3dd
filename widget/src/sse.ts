// Server-sent events read from a fetch body: the widget's replies and live messages, and the
// console's try-it panel. Only what a network or a stream really throws is turned into these
// errors; anything else (a bug in a handler) propagates as it is.

/** The request or its body failed in the network (offline, reset, aborted): the caller may try again. */
export class NetworkError extends Error {
  constructor(readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = "NetworkError";
  }
}

/** A reply stream that ended before its final event (`done: true`): it was cut, and the caller may resume it. */
export class StreamEnded extends Error {
  constructor() {
    super("The stream ended before its final event.");
    this.name = "StreamEnded";
  }
}

/** `fetch`, with its own rejection (the network's, or an abort) as a NetworkError. */
export async function fetchOrNetworkError(input: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (err) {
    throw new NetworkError(err);
  }
}

/**
 * Server-sent events of a response body: `on(id, event, data)` for each event with data (JSON).
 * With `untilDone` (replies), throws StreamEnded when the body ends before an event with
 * `done: true`; without it (live streams, which have no final event), returns when the body ends.
 * A failed read, or nothing read for `idleMs`, is a NetworkError. The reader is released (cancelled)
 * however this ends, so an abandoned stream never keeps its connection.
 */
export async function readEvents(
  body: ReadableStream<BufferSource>,
  on: (id: string | null, event: string, data: Record<string, unknown>) => void,
  { untilDone = true, idleMs }: { untilDone?: boolean; idleMs?: number } = {},
): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let finished = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Nothing for `idleMs` (the server pings every 10 s): the connection died without a word, as a phone changing
  // networks leaves it, and waiting on it would miss what comes next.
  let expire: (err: NetworkError) => void = () => {};
  const silent = new Promise<never>((_, reject) => (expire = reject));
  silent.catch(() => undefined); // raced below; unobserved when the stream ends first
  const armIdle = () => {
    if (idleMs === undefined) return;
    clearTimeout(timer);
    timer = setTimeout(() => expire(new NetworkError(new Error(`Nothing came for ${idleMs} ms.`))), idleMs);
  };
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<string>;
      armIdle();
      try {
        chunk = await Promise.race([reader.read(), silent]);
      } catch (err) {
        throw err instanceof NetworkError ? err : new NetworkError(err);
      }
      if (chunk.done) break;
      buffer += chunk.value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id: string | null = null;
        let event = "message";
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("id:")) id = line.slice(3).trim();
          else if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
        }
        if (!data.length) continue;
        const parsed = JSON.parse(data.join("\n")) as Record<string, unknown>;
        on(id, event, parsed);
        if (parsed.done || event === "error") finished = true; // an error is a stream's last event too
      }
    }
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => undefined); // already closed or errored: nothing left to release
  }
  if (untilDone && !finished) throw new StreamEnded();
}
