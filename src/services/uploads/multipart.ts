import { Buffer } from "node:buffer";

/**
 * A streaming `multipart/form-data` reader: text fields are read into strings (bounded), and a file
 * part is handed over as a stream of its bytes, so an upload goes to R2 without being held whole in
 * memory. Only what is needed before a part is read: fields come first and the file last, as S3 and
 * every common client (browsers, Python requests, curl) order them.
 */
export class MultipartError extends Error {}

export interface PartHeaders {
  name: string;
  filename: string | null;
  contentType: string | null;
}

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");
const MAX_HEADER_BYTES = 16 * 1024;

export function boundaryOf(contentType: string | null | undefined): string | null {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  const boundary = m?.[1] ?? m?.[2] ?? null;
  return boundary && boundary.length <= 200 ? boundary : null;
}

/**
 * A request body is read in pieces of at least half of `readBytes` (workerd's `readAtLeast`): the runtime
 * hands a network body over in pieces of about 4 KiB, and the JS work done per piece (a read, a
 * search, a hand-over) cost more than the copy for a 20 MB file. Streams that are not byte streams
 * (built in JS) are read as their chunks come. A consumer done with a piece gives its buffer back
 * (`recycle`) and the next read fills it again: a fresh buffer per read left a file's size of
 * garbage per upload, which V8 only collects once tens of megabytes of it have piled up.
 */
const READ_BYTES = 256 * 1024;
const POOLED_BUFFERS = 8;

export class MultipartReader {
  #reader: ReadableStreamDefaultReader<Uint8Array> | ReadableStreamBYOBReader;
  #byob: boolean;
  #buf: Buffer = Buffer.alloc(0);
  #delimiter: Buffer;
  #done = false;
  #finished = false;
  /** Bytes of the body taken from the stream so far, minus those still buffered: the position of the next unread byte.
   * */
  #read = 0;
  #inPart = false;
  /** Buffers this reader read into (and may fill again once given back), and those given back. */
  #owned = new WeakSet<ArrayBufferLike>();
  #free: ArrayBuffer[] = [];
  /** Size of the reads (at least half of it each); a large file's reader may raise it (see store.ts). */
  readBytes = READ_BYTES;

  constructor(body: ReadableStream<Uint8Array>, boundary: string) {
    let byob: ReadableStreamBYOBReader | null = null;
    try {
      byob = body.getReader({ mode: "byob" });
    } catch {
      /* not a byte stream */
    }
    this.#byob = byob !== null && typeof byob.readAtLeast === "function";
    this.#reader = byob ?? body.getReader();
    this.#delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  /** Bytes of the body consumed so far (the offset of the next unread byte). */
  get position() {
    return this.#read - this.#buf.length;
  }

  /** Length of the closing delimiter S3 clients end with: `\r\n--boundary--\r\n`. */
  get closingLength() {
    return this.#delimiter.length + 4;
  }

  async #fill(): Promise<boolean> {
    const chunk = await this.#nextChunk();
    if (!chunk) return false;
    this.#buf = this.#buf.length ? Buffer.concat([this.#buf, chunk]) : chunk;
    return true;
  }

  /** The next part's headers, or null at the end of the body. */
  async next(): Promise<PartHeaders | null> {
    if (this.#finished) return null;
    if (this.#inPart) await this.skip();
    if (this.position === 0) {
      // The body starts with `--boundary` (no CRLF before it): pretend one was there.
      this.#buf = Buffer.concat([CRLF, this.#buf]);
      let at: number;
      while ((at = this.#buf.indexOf(this.#delimiter)) < 0) {
        if (this.#buf.length > MAX_HEADER_BYTES || !(await this.#fill()))
          throw new MultipartError("The body has no multipart boundary.");
      }
      this.#buf = this.#buf.subarray(at + this.#delimiter.length);
    }
    // After a delimiter: `--` ends the body, else CRLF and the part's headers.
    while (this.#buf.length < 2)
      if (!(await this.#fill())) throw new MultipartError("The multipart body ends without its closing boundary.");
    if (this.#buf[0] === 0x2d && this.#buf[1] === 0x2d) {
      this.#finished = true;
      return null;
    }
    let end: number;
    while ((end = this.#buf.indexOf(HEADER_END)) < 0) {
      if (this.#buf.length > MAX_HEADER_BYTES || !(await this.#fill()))
        throw new MultipartError("A multipart part has malformed headers.");
    }
    const lines = this.#buf.subarray(0, end).toString("utf8").split("\r\n").slice(1);
    this.#buf = this.#buf.subarray(end + HEADER_END.length);
    this.#inPart = true;
    return parseHeaders(lines);
  }

  /** Reads the next chunk of the body (counted in the position), or null at its end. */
  async #nextChunk(): Promise<Buffer | null> {
    for (;;) {
      if (this.#done) return null;
      // A buffer given back, or a fresh one: what was handed over and not given back stays valid.
      const { done, value } = this.#byob
        ? await (this.#reader as ReadableStreamBYOBReader).readAtLeast(
            this.readBytes >> 1,
            new Uint8Array(this.#takeBuffer()),
          )
        : await (this.#reader as ReadableStreamDefaultReader<Uint8Array>).read();
      if (done) this.#done = true;
      if (!value?.byteLength) continue;
      if (this.#byob) this.#owned.add(value.buffer);
      this.#read += value.byteLength;
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }

  #takeBuffer(): ArrayBuffer {
    for (let free = this.#free.pop(); free; free = this.#free.pop())
      if (free.byteLength === this.readBytes) return free;
    return new ArrayBuffer(this.readBytes);
  }

  /**
   * Gives back the buffer of a piece `chunks()` handed over, to be read into again: only once
   * nothing (no pending write either) uses that piece any more. The reader itself keeps no view
   * of a buffer it handed over (what it keeps of one is copied), and hands each over once.
   */
  recycle(piece: Uint8Array) {
    if (this.#owned.delete(piece.buffer) && this.#free.length < POOLED_BUFFERS)
      this.#free.push(piece.buffer as ArrayBuffer);
  }

  /**
   * The current part's bytes as they arrive, as views of the body's chunks (no copy): a chunk is
   * searched for the delimiter on its own, and only the few bytes where it meets the previous one
   * are joined; ends at the part's end. What is kept of a chunk past its hand-over is a copy, so
   * that the consumer may `recycle` what it was handed.
   */
  async *chunks(): AsyncGenerator<Buffer> {
    const d = this.#delimiter.length;
    for (;;) {
      const at = this.#buf.indexOf(this.#delimiter);
      if (at >= 0) {
        const part = this.#buf.subarray(0, at);
        this.#buf = Buffer.from(this.#buf.subarray(at + d));
        this.#inPart = false;
        if (at > 0) yield part;
        return;
      }
      // Keep what could be the start of the delimiter; hand over the rest.
      const safe = this.#buf.length - (d - 1);
      if (safe > 0) {
        const part = this.#buf.subarray(0, safe);
        this.#buf = Buffer.from(this.#buf.subarray(safe));
        yield part;
      }
      const chunk = await this.#nextChunk();
      if (!chunk) throw new MultipartError("The multipart body ends in the middle of a part.");
      // Most chunks hold no delimiter, neither where they meet the kept bytes nor inside.
      const joint = Buffer.concat([this.#buf, chunk.subarray(0, d - 1)]);
      if (chunk.length >= d - 1 && joint.indexOf(this.#delimiter) < 0 && chunk.indexOf(this.#delimiter) < 0) {
        const cut = chunk.length - (d - 1);
        const kept = this.#buf;
        this.#buf = Buffer.from(chunk.subarray(cut));
        if (kept.length) yield kept;
        yield chunk.subarray(0, cut);
      } else {
        this.#buf = Buffer.concat([this.#buf, chunk]);
      }
    }
  }

  /** The current part's bytes as a stream (see chunks). */
  stream(): ReadableStream<Uint8Array> {
    const chunks = this.chunks();
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const { done, value } = await chunks.next();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (err) {
          controller.error(err);
        }
      },
      cancel: () => this.cancel(),
    });
  }

  /** The current part as text, at most `limit` bytes (else MultipartError). */
  async text(limit = 64 * 1024): Promise<string> {
    const parts: Uint8Array[] = [];
    let size = 0;
    const reader = this.stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw new MultipartError(`A form field is larger than ${limit} bytes.`);
      }
      parts.push(value);
    }
    return Buffer.concat(parts).toString("utf8");
  }

  async skip() {
    const reader = this.stream().getReader();
    while (!(await reader.read()).done);
  }

  async cancel() {
    this.#finished = true;
    await this.#reader.cancel().catch(() => undefined);
  }
}

function parseHeaders(lines: string[]): PartHeaders {
  let disposition = "";
  let contentType: string | null = null;
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    else if (name === "content-type") contentType = value;
  }
  const param = (key: string) => {
    const star = new RegExp(`;\\s*${key}\\*=(?:UTF-8|utf-8)''([^;]+)`).exec(disposition);
    if (star) {
      try {
        return decodeURIComponent(star[1]);
      } catch {
        /* fall through to the plain form */
      }
    }
    const m = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]+))`).exec(disposition);
    return m ? (m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2].trim()) : null;
  };
  const name = param("name");
  if (!/^form-data/i.test(disposition) || name === null)
    throw new MultipartError("A multipart part lacks Content-Disposition: form-data with a name.");
  return { name, filename: param("filename"), contentType };
}
