import { and, eq, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { uploads } from "../../db/schema";
import { ph, prepared } from "../../db/prepared";
import { ApiError, badRequest } from "../../lib/errors";
import { inList } from "../../lib/sql";
import { dataDb } from "../shards";
import { MultipartError, type MultipartReader } from "./multipart";

export type UploadRow = typeof uploads.$inferSelect;

/**
 * The name a multipart part gives, as people will see it: its last path segment, control characters (a tab, a NUL
 * a client let through) as spaces, trimmed; `fallback` when nothing is left (docs/decisions.md, "Names are one line").
 */
export function shownFilename(name: string, fallback = "upload"): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  const base = (name.split(/[\\/]/).pop() ?? "").replace(/[\x00-\x1F\x7F-\x9F]+/g, " ");
  return base.replace(/ {2,}/g, " ").trim().slice(0, 255) || fallback;
}

/** `Report 2026 (final).PDF` -> `Report_2026_final_.pdf`: safe in a key and a URL path. */
export function safeFilename(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? "").trim();
  const dot = base.lastIndexOf(".");
  const stem =
    (dot > 0 ? base.slice(0, dot) : base)
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .replace(/^[._]+/, "")
      .slice(0, 100) || "file";
  const ext =
    dot > 0
      ? base
          .slice(dot + 1)
          .replace(/[^A-Za-z0-9]+/g, "")
          .slice(0, 10)
          .toLowerCase()
      : "";
  return ext ? `${stem}.${ext}` : `${stem}.bin`;
}

/** Unguessable, prefixed by organization and model: `uploads/<org>/<model>/<random uuid>/<name>`. */
export const newUploadKey = (organizationId: string, modelName: string, filename: string) =>
  `uploads/${organizationId}/${modelName}/${crypto.randomUUID()}/${safeFilename(filename)}`;

/** The organization a key was issued for (null: not an upload key). */
export function organizationOfKey(key: string): string | null {
  const m = /^uploads\/([0-9a-f-]{36})\/[a-z-]+\/[0-9a-f-]{36}\/[^/]+$/.exec(key);
  return m ? m[1] : null;
}

const uploadArrived = prepared<{ key: string; size: number; at: number }>((db) =>
  db
    .update(uploads)
    .set({ uploadedAt: ph("at"), size: ph("size") })
    .where(eq(uploads.key, sql.placeholder("key"))),
);

/** The object of a presigned upload has arrived: its size and the time it did (from then on its bytes count in the
 * organization's stored uploads). Where a plan limits them, `countArrival` (uploads/allowance.ts) writes it. */
export async function markUploaded(data: Db, key: string, size: number) {
  await uploadArrived(data, { key, size, at: Date.now() }).run();
}

export async function findUpload(data: Db, organizationId: string, key: string): Promise<UploadRow | null> {
  const [row] = await data
    .select()
    .from(uploads)
    .where(and(eq(uploads.key, key), eq(uploads.organizationId, organizationId)));
  return row ?? null;
}

/** The bytes of the organization's uploads among `keys` (those not arrived count none). */
export async function storedSizes(data: Db, organizationId: string, keys: string[]): Promise<number> {
  if (!keys.length) return 0;
  const rows = await data
    .select({ size: uploads.size })
    .from(uploads)
    .where(and(eq(uploads.organizationId, organizationId), inList(uploads.key, keys)));
  return rows.reduce((n, r) => n + (r.size ?? 0), 0);
}

/**
 * The upload a key names, with the data plane of the organization the key names (where the upload's row is, and its
 * `markUploaded` goes); null when the key names no upload.
 */
async function uploadOfKey(env: Bindings, key: string): Promise<{ upload: UploadRow; data: Db } | null> {
  const organizationId = organizationOfKey(key);
  if (!organizationId) return null;
  const data = await dataDb(env, organizationId);
  const upload = await findUpload(data, organizationId, key);
  return upload ? { upload, data } : null;
}

/**
 * The upload a key names when it has not received its bytes yet (both upload targets, PUT and POST); S3's 403
 * `AccessDenied` when the key names no upload or one already used.
 */
export async function unusedUploadOfKey(env: Bindings, key: string): Promise<{ upload: UploadRow; data: Db }> {
  const found = await uploadOfKey(env, key);
  if (!found || found.upload.uploadedAt)
    throw new ApiError(
      403,
      "AccessDenied",
      found ? "This upload has already been used." : "This upload is no longer valid.",
    );
  return found;
}

export class TooLarge extends Error {}

/** Bytes held in memory at most while a part streams to R2 (R2's multipart parts must be >= 5 MiB). */
const PART_BYTES = 8 * 1024 * 1024;
/** R2's smallest part but the last. */
const MIN_PART_BYTES = 5 * 1024 * 1024;
/** R2's largest part is 5 GiB; a streamed prefix is cut into equal parts of at most this. */
const MAX_STREAMED_PART_BYTES = 4 * 1024 * 1024 * 1024;
/**
 * The end of a file the streamed path holds back and sends as the last part: it covers either
 * closing (with or without CRLF) and a short epilogue or field after the file (an HTML form's named
 * submit button). Whatever follows the file beyond this is refused (400): those bytes went to R2.
 */
export const STREAM_TAIL_BYTES = 64 * 1024;
/** Pieces of the body (up to 1 MiB each) written to R2 and not yet taken: waiting for each one in turn left R2 and the
 * body idle by turns. */
const WRITES_IN_FLIGHT = 4;
/** The streamed path reads the body in pieces of 0.5 to 1 MiB (a small file's in 128 to 256 KiB): fewer hand-overs,
 * still bounded. */
const STREAM_READ_BYTES = 1024 * 1024;

/**
 * Writes the reader's current part to R2 under `key`; nothing is stored unless the whole file is.
 * Clients end a multipart body differently (browsers, curl and Python with a CRLF after the closing
 * boundary, workerd's FormData without), so Content-Length tells the file's length only to within a
 * few bytes: it refuses an oversize file before a byte is read, and bounds it for the paths below.
 * - Content-Length known, file at least 5 MiB and the tail: `streamPart` (all but the last 64 KiB
 *   stream into R2 as they arrive, the rest is the last part of a multipart upload).
 * - Content-Length known, smaller file: `smallPart` (one buffer of at most 5 MiB and the tail, one put).
 * - No Content-Length (a chunked body): bounded 8 MiB parts, below (one put for a file that fits in
 *   one, else a multipart upload, part by part as the bytes arrive, at most two parts in memory).
 * Sizes outside `range` fail with TooLarge and a broken body with MultipartError.
 */
export async function writePart(
  env: Bindings,
  reader: MultipartReader,
  key: string,
  bodyLength: number | null,
  range: { min: number; max: number },
  contentType: string,
): Promise<number> {
  const httpMetadata = { contentType };
  if (bodyLength !== null) {
    const atLeast = bodyLength - reader.position - reader.closingLength;
    if (atLeast > range.max) throw new TooLarge(`The file is ${atLeast} bytes; at most ${range.max} are allowed.`);
    // The file ends at most here: the shortest closing is `\r\n--boundary--` (workerd's FormData).
    const atMost = atLeast + 2;
    if (atMost - STREAM_TAIL_BYTES >= MIN_PART_BYTES)
      return streamPart(env, reader, key, atMost - STREAM_TAIL_BYTES, range, httpMetadata);
    return smallPart(env, reader, key, bodyLength - reader.position, range, httpMetadata);
  }
  const parts = reader.chunks();
  // Chunks are kept as they came (views, no copy) until a part is full; R2 wants every part but the last of one size.
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let size = 0;
  let upload = null as R2MultipartUpload | null;
  const uploaded: R2UploadedPart[] = [];
  // One part goes up while the next is read (at most two parts in memory).
  let inFlight: Promise<void> = Promise.resolve();
  const send = async (part: Uint8Array) => {
    upload ??= await env.FILES.createMultipartUpload(key, { httpMetadata });
    const started = upload;
    const number = uploaded.length + 1;
    uploaded.push(undefined as unknown as R2UploadedPart);
    await inFlight;
    inFlight = started.uploadPart(number, part).then((done) => void (uploaded[number - 1] = done));
  };
  const take = (n: number) => {
    const part = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const head = pending[0];
      const used = Math.min(head.byteLength, n - at);
      part.set(head.subarray(0, used), at);
      at += used;
      if (used === head.byteLength) pending.shift();
      else pending[0] = head.subarray(used);
    }
    pendingBytes -= n;
    return part;
  };
  try {
    for (;;) {
      const { done, value } = await parts.next();
      if (done) break;
      size += value.byteLength;
      if (size > range.max) throw new TooLarge(`The file is larger than ${range.max} bytes.`);
      pending.push(value);
      pendingBytes += value.byteLength;
      while (pendingBytes >= PART_BYTES) await send(take(PART_BYTES));
    }
    if (size < range.min) throw new TooLarge(`The file is ${size} bytes; at least ${range.min} are required.`);
    if (!upload) {
      await env.FILES.put(key, pending.length === 1 ? pending[0] : take(pendingBytes), { httpMetadata });
      return size;
    }
    if (pendingBytes) await send(take(pendingBytes));
    await inFlight;
    await upload.complete(uploaded);
    return size;
  } catch (err) {
    pending = [];
    await inFlight.catch(() => undefined);
    await reader.cancel();
    await upload?.abort().catch(() => undefined);
    throw err;
  }
}

/**
 * The streamed path, for a file whose length Content-Length bounds (at least `prefix` bytes plus
 * the tail): R2 needs a part's length before its first byte, so the first `prefix` bytes are the
 * file for certain and stream into R2 as they arrive (equal parts, each a FixedLengthStream, no
 * copy), while the rest, whose end only the closing delimiter tells, is kept and sent as the last
 * part (at most STREAM_TAIL_BYTES and the 2 bytes of a CRLF). A file that ends before the prefix
 * does (more than the tail follows it) aborts the upload: the part in flight cannot be completed.
 * No object exists until `complete`, so a failure at any point stores nothing.
 */
async function streamPart(
  env: Bindings,
  reader: MultipartReader,
  key: string,
  prefix: number,
  range: { min: number; max: number },
  httpMetadata: R2HTTPMetadata,
): Promise<number> {
  const count = Math.ceil(prefix / MAX_STREAMED_PART_BYTES);
  const partBytes = Math.floor(prefix / count);
  const streamed = count * partBytes;
  reader.readBytes = STREAM_READ_BYTES;
  const chunks = reader.chunks();
  const creating = env.FILES.createMultipartUpload(key, { httpMetadata });
  creating.catch(() => undefined);
  let upload: R2MultipartUpload | null = null;
  const parts: Promise<R2UploadedPart>[] = [];
  let writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  // Writes not yet taken by R2: a few in flight, so the body is read while R2 takes what came before.
  const writing: Promise<void>[] = [];
  let left = 0;
  let sent = 0;
  let size = 0;
  let tail: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await chunks.next();
      if (done) break;
      size += value.byteLength;
      if (size > range.max) throw new TooLarge(`The file is larger than ${range.max} bytes.`);
      let at = 0;
      const writes: Promise<void>[] = [];
      while (at < value.byteLength && sent < streamed) {
        if (!writer) {
          // Created while the first piece was read.
          upload ??= await creating;
          const part = new FixedLengthStream(partBytes);
          const uploading = upload.uploadPart(parts.length + 1, part.readable);
          uploading.catch(() => undefined);
          parts.push(uploading);
          writer = part.writable.getWriter();
          left = partBytes;
        }
        const n = Math.min(left, value.byteLength - at);
        if (writing.length >= WRITES_IN_FLIGHT) await writing.shift();
        const write = writer.write(value.subarray(at, at + n));
        write.catch(() => undefined);
        writing.push(write);
        writes.push(write);
        at += n;
        left -= n;
        sent += n;
        if (left === 0) {
          await Promise.all(writing.splice(0));
          await writer.close();
          writer = null;
        }
      }
      // The tail is copied, so the piece's buffer is free again once R2 has taken what was written of it.
      if (at < value.byteLength) tail.push(new Uint8Array(value.subarray(at)));
      Promise.all(writes).then(
        () => reader.recycle(value),
        () => undefined,
      );
    }
    if (sent < streamed)
      throw new MultipartError(
        `More than ${STREAM_TAIL_BYTES} bytes follow the file part; the file must be the last part of the form.`,
      );
    if (size < range.min) throw new TooLarge(`The file is ${size} bytes; at least ${range.min} are required.`);
    upload ??= await creating;
    const rest = tail.length === 1 ? tail[0] : concat(tail, size - sent);
    tail = [];
    if (rest.byteLength) parts.push(upload.uploadPart(parts.length + 1, rest));
    await upload.complete(await Promise.all(parts));
    return size;
  } catch (err) {
    tail = [];
    await writer?.abort(err).catch(() => undefined);
    await Promise.allSettled(writing);
    await Promise.allSettled(parts);
    await reader.cancel();
    upload ??= await creating.catch(() => null);
    await upload?.abort().catch(() => undefined);
    throw err;
  }
}

/**
 * A file too small for a multipart upload (under 5 MiB and the tail) whose body states its length:
 * copied into one buffer of the body's remaining length as it arrives (each piece's buffer goes
 * back to the reader), then put whole.
 */
async function smallPart(
  env: Bindings,
  reader: MultipartReader,
  key: string,
  remaining: number,
  range: { min: number; max: number },
  httpMetadata: R2HTTPMetadata,
): Promise<number> {
  const file = new Uint8Array(Math.max(0, remaining));
  let size = 0;
  try {
    for await (const piece of reader.chunks()) {
      if (size + piece.byteLength > range.max) throw new TooLarge(`The file is larger than ${range.max} bytes.`);
      // Content-Length bounds the body; a longer one cannot come through the runtime, but never write past the buffer.
      if (size + piece.byteLength > file.byteLength)
        throw new MultipartError("The body is longer than its Content-Length.");
      file.set(piece, size);
      size += piece.byteLength;
      reader.recycle(piece);
    }
    if (size < range.min) throw new TooLarge(`The file is ${size} bytes; at least ${range.min} are required.`);
    await env.FILES.put(key, file.subarray(0, size), { httpMetadata });
    return size;
  } catch (err) {
    await reader.cancel();
    throw err;
  }
}

function concat(pieces: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.byteLength;
  }
  return out;
}

/** Content-Length of a request, when it states one. */
export function bodyLengthOf(request: Request): number | null {
  const raw = request.headers.get("Content-Length");
  if (raw === null || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

export const notMultipart = () => badRequest("Send multipart/form-data with a boundary.", undefined, "parse_error");
