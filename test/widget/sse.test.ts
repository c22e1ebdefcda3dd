import { describe, expect, it } from "vitest";
import { NetworkError, readEvents } from "../../widget/src/sse";

const encoder = new TextEncoder();

/** A body that sends `chunks` at their times (ms from the start) and then stays open, saying nothing, until read
 * no more; `cancelled` resolves when the reader lets it go. */
function body(chunks: [number, string][], close = false) {
  let cancelled!: () => void;
  const released = new Promise<void>((resolve) => (cancelled = resolve));
  const timers: ReturnType<typeof setTimeout>[] = [];
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (const [at, text] of chunks) timers.push(setTimeout(() => c.enqueue(encoder.encode(text)), at));
      if (close) timers.push(setTimeout(() => c.close(), Math.max(0, ...chunks.map(([at]) => at)) + 10));
    },
    cancel() {
      for (const t of timers) clearTimeout(t);
      cancelled();
    },
  });
  return { stream, released };
}

describe("the widget's event stream reader", () => {
  it("takes a connection silent for idleMs for dead: a NetworkError, the body let go", async () => {
    const { stream, released } = body([[0, ": ping\n\n"]]);
    const seen: string[] = [];
    const started = Date.now();
    await expect(
      readEvents(stream, (_id, event) => seen.push(event), { untilDone: false, idleMs: 200 }),
    ).rejects.toBeInstanceOf(NetworkError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    await released;
    expect(seen).toEqual([]);
  });

  it("is kept alive by pings: an event after many quiet intervals still comes", async () => {
    const pings = Array.from({ length: 8 }, (_, i): [number, string] => [50 * (i + 1), ": ping\n\n"]);
    const { stream } = body([...pings, [450, 'event: message\ndata: {"content":"hello"}\n\n']], true);
    const seen: unknown[] = [];
    await readEvents(stream, (_id, _event, data) => seen.push(data), { untilDone: false, idleMs: 200 });
    expect(seen).toEqual([{ content: "hello" }]);
  });

  it("without idleMs waits as long as the body stays open", async () => {
    const { stream } = body([[300, 'data: {"done":true}\n\n']], true);
    const seen: unknown[] = [];
    await readEvents(stream, (_id, _event, data) => seen.push(data));
    expect(seen).toEqual([{ done: true }]);
  });
});
