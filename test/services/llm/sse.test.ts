import { describe, expect, it } from "vitest";
import { parseSse, startsAsJsonObject, type SseEvent } from "../../../src/services/llm/sse";

/** A byte stream delivering `parts` one read each. */
function streamOf(parts: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const p of parts) controller.enqueue(typeof p === "string" ? encoder.encode(p) : p);
      controller.close();
    },
  });
}

async function collect(parts: (string | Uint8Array)[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of parseSse(streamOf(parts))) out.push(e);
  return out;
}

const WIRE =
  ': comment\n\ndata: {"a":1}\n\nevent: error\ndata: {"detail":"x"}\n\ndata: line one\ndata: line ' +
  "two\n\ndata: [DONE]\n\n";
const EXPECTED: SseEvent[] = [
  { event: null, data: '{"a":1}' },
  { event: "error", data: '{"detail":"x"}' },
  { event: null, data: "line one\nline two" },
  { event: null, data: "[DONE]" },
];

describe("parseSse", () => {
  it("reads several events from one read, skipping comments, joining multi-line data, keeping names", async () => {
    expect(await collect([WIRE])).toEqual(EXPECTED);
  });

  it("gives the same events however the stream is split, down to one character per read", async () => {
    for (const size of [1, 2, 3, 7, 16]) {
      const parts: string[] = [];
      for (let i = 0; i < WIRE.length; i += size) parts.push(WIRE.slice(i, i + size));
      expect(await collect(parts), `split every ${size}`).toEqual(EXPECTED);
    }
  });

  it("handles CRLF and CR line ends, a CRLF split across reads, and no space after the colon", async () => {
    expect(await collect(["data:a\r", "", "\n\r", "\ndata: b\r\rdata: c\r\n\r\n"])).toEqual([
      { event: null, data: "a" },
      { event: null, data: "b" },
      { event: null, data: "c" },
    ]);
  });

  it("decodes a multi-byte character split across reads", async () => {
    const bytes = new TextEncoder().encode('data: {"t":"營業時間"}\n\n');
    expect(await collect([bytes.slice(0, 13), bytes.slice(13, 14), bytes.slice(14)])).toEqual([
      { event: null, data: '{"t":"營業時間"}' },
    ]);
  });

  it("yields an event as soon as its blank line arrives, before the rest of the stream", async () => {
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const events = parseSse(new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) }));
    controller.enqueue(encoder.encode('data: {"n":1}\n'));
    controller.enqueue(encoder.encode('\ndata: {"n"'));
    expect((await events.next()).value).toEqual({ event: null, data: '{"n":1}' });
    controller.enqueue(encoder.encode(":2}"));
    controller.close();
    // A last event without its blank line still counts.
    expect((await events.next()).value).toEqual({ event: null, data: '{"n":2}' });
    expect((await events.next()).done).toBe(true);
  });

  it("ignores events without data and unknown fields", async () => {
    expect(await collect(["event: ping\n\nid: 4\nretry: 10\n\ndata: x\n\n"])).toEqual([{ event: null, data: "x" }]);
  });
});

describe("startsAsJsonObject", () => {
  it("tells a JSON object after blank reads and white space, and gives the whole body again", async () => {
    const told = await startsAsJsonObject(streamOf(["", " \r\n", '\t{"error": ', '{"message": "x"}}']));
    expect(told.json).toBe(true);
    expect(JSON.parse(await new Response(told.body).text())).toEqual({ error: { message: "x" } });
    expect((await startsAsJsonObject(streamOf([]))).json).toBe(false);
  });

  it("leaves an event stream to be read as it arrives, its first read first", async () => {
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const told = startsAsJsonObject(new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) }));
    // Told from the first read alone, while the rest has not arrived.
    controller.enqueue(encoder.encode('data: {"n":1}\n\n'));
    const { json, body } = await told;
    expect(json).toBe(false);
    const events = parseSse(body);
    expect((await events.next()).value).toEqual({ event: null, data: '{"n":1}' });
    controller.enqueue(encoder.encode('data: {"n":2}\n\n'));
    controller.close();
    expect((await events.next()).value).toEqual({ event: null, data: '{"n":2}' });
    expect((await events.next()).done).toBe(true);
  });
});
