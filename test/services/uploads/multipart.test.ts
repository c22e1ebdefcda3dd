import { describe, expect, it } from "vitest";
import { MultipartReader } from "../../../src/services/uploads/multipart";

const enc = new TextEncoder();
const BOUNDARY = "xYz-boundary-42";

/** A body with two fields and a file whose bytes imitate the delimiter without being one. */
function body(file: Uint8Array, trailer: string) {
  const head = enc.encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="key"\r\n\r\nuploads/a.txt\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="policy"\r\n\r\neyJ4IjoxfQ==\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: ` +
      `text/plain\r\n\r\n`,
  );
  const tail = enc.encode(`\r\n--${BOUNDARY}--${trailer}`);
  const out = new Uint8Array(head.length + file.length + tail.length);
  out.set(head, 0);
  out.set(file, head.length);
  out.set(tail, head.length + file.length);
  return out;
}

/** The body as a stream of chunks of `size` bytes (the last shorter). */
function chunked(bytes: Uint8Array, size: number) {
  return new ReadableStream<Uint8Array>({
    start(c) {
      for (let at = 0; at < bytes.length; at += size) c.enqueue(bytes.slice(at, at + size));
      c.close();
    },
  });
}

async function read(stream: ReadableStream<Uint8Array>) {
  const reader = new MultipartReader(stream, BOUNDARY);
  const fields: Record<string, string> = {};
  for (let part = await reader.next(); part; part = await reader.next()) {
    if (part.name !== "file") {
      fields[part.name] = await reader.text();
      continue;
    }
    const got: number[] = [];
    for await (const chunk of reader.chunks()) got.push(...chunk);
    return { fields, file: new Uint8Array(got), filename: part.filename };
  }
  throw new Error("no file part");
}

describe("MultipartReader", () => {
  const file = enc.encode(
    `line one\r\n--${BOUNDARY.slice(0, 7)}not the end\r\n-${"-".repeat(3)}${BOUNDARY}X and ` +
      `\r\n--${BOUNDARY.slice(0, -1)}. Done.`,
  );

  it(
    "reads fields and the file exactly, however the body is cut into chunks, with or without a CRLF after the " +
      "closing boundary",
    async () => {
      for (const trailer of ["\r\n", ""]) {
        const bytes = body(file, trailer);
        for (let size = 1; size <= 64; size++) {
          const got = await read(chunked(bytes, size));
          expect(got.fields, `chunks of ${size}`).toEqual({ key: "uploads/a.txt", policy: "eyJ4IjoxfQ==" });
          expect(got.filename).toBe("a.txt");
          expect(new TextDecoder().decode(got.file), `chunks of ${size}, trailer ${JSON.stringify(trailer)}`).toBe(
            new TextDecoder().decode(file),
          );
        }
        // One chunk for the whole body, as small uploads arrive.
        expect((await read(chunked(bytes, bytes.length))).file).toEqual(file);
      }
    },
  );

  it("a body that ends inside the file part is an error, not a short file", async () => {
    const bytes = body(file, "\r\n");
    const cut = bytes.slice(0, bytes.length - 30);
    await expect(read(chunked(cut, 7))).rejects.toThrow(/ends in the middle of a part/);
  });

  it(
    "a byte stream (a request body) is read in large pieces whose buffers, given back, are read into again " +
      "without changing a byte handed over or kept",
    async () => {
      // A file of several read pieces (256 KiB), delimiter look-alikes where pieces meet, then a field after it.
      const big = new Uint8Array(1024 * 1024 + 333);
      for (let i = 0; i < big.length; i++) big[i] = (i * 13 + (i >>> 9)) % 253;
      for (let at = 256 * 1024 - 6; at + 40 < big.length; at += 256 * 1024)
        big.set(enc.encode(`\r\n--${BOUNDARY.slice(0, -1)}`), at);
      for (const trailer of ["\r\n", ""]) {
        const head = body(big, "");
        const withField = new Uint8Array([
          ...head.subarray(0, head.length - BOUNDARY.length - 6),
          ...enc.encode(
            `\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="after"\r\n\r\nstill ` +
              `read\r\n--${BOUNDARY}--${trailer}`,
          ),
        ]);
        const stream = new Response(withField).body!;
        const reader = new MultipartReader(stream, BOUNDARY);
        const names: string[] = [];
        let got: Uint8Array | null = null;
        let after = "";
        let pieces = 0;
        for (let part = await reader.next(); part; part = await reader.next()) {
          names.push(part.name);
          if (part.name === "after") after = await reader.text();
          else if (part.name !== "file") await reader.text();
          else {
            const out: Uint8Array[] = [];
            for await (const piece of reader.chunks()) {
              out.push(new Uint8Array(piece)); // a copy (a Buffer's slice() is a view)
              pieces++;
              // Given back at once, and spoiled: the next read fills it again anyway.
              reader.recycle(piece);
              piece.fill(0xee);
            }
            got = new Uint8Array(out.reduce((n, p) => n + p.length, 0));
            out.reduce((at, p) => (got!.set(p, at), at + p.length), 0);
          }
        }
        expect(names).toEqual(["key", "policy", "file", "after"]);
        expect(pieces).toBeLessThan(20);
        expect(got!.length).toBe(big.length);
        expect(
          got!.every((b, i) => b === big[i]),
          `trailer ${JSON.stringify(trailer)}`,
        ).toBe(true);
        expect(after).toBe("still read");
      }
    },
  );
});
