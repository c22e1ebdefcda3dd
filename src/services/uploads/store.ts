import { and, eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { uploads } from "../../db/schema";
import { badRequest } from "../../lib/errors";
import type { MultipartReader } from "./multipart";

export type UploadRow = typeof uploads.$inferSelect;

/** `Report 2026 (final).PDF` -> `Report_2026_final_.pdf`: safe in a key and a URL path. */
export function safeFilename(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? "").trim();
  const dot = base.lastIndexOf(".");
  const stem = (dot > 0 ? base.slice(0, dot) : base).replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "").slice(0, 100) || "file";
  const ext = dot > 0 ? base.slice(dot + 1).replace(/[^A-Za-z0-9]+/g, "").slice(0, 10).toLowerCase() : "";
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

export async function findUpload(db: Db, organizationId: string, key: string): Promise<UploadRow | null> {
  const [row] = await db.select().from(uploads).where(and(eq(uploads.key, key), eq(uploads.organizationId, organizationId)));
  return row ?? null;
}

export class TooLarge extends Error {}

/** Bytes held in memory at most while a part streams to R2 (R2's multipart parts must be >= 5 MiB). */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * Writes the reader's current part to R2 under `key`, holding at most one 8 MiB part in memory: a
 * file that fits in one part is put whole, a larger one goes up as an R2 multipart upload, part by
 * part as the bytes arrive. The length is never guessed from Content-Length (clients end a multipart
 * body differently: browsers, curl and Python with a CRLF after the closing boundary, workerd's
 * FormData without), which only serves to refuse an oversize file before a byte is read. Sizes
 * outside `range` fail with TooLarge and a broken body with MultipartError; nothing is stored then.
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
  }
  const parts = reader.stream().getReader();
  let buffer = new Uint8Array(PART_BYTES);
  let filled = 0;
  let size = 0;
  let upload: R2MultipartUpload | null = null;
  const uploaded: R2UploadedPart[] = [];
  try {
    for (;;) {
      const { done, value } = await parts.read();
      if (done) break;
      size += value.byteLength;
      if (size > range.max) throw new TooLarge(`The file is larger than ${range.max} bytes.`);
      let chunk = value;
      while (chunk.byteLength) {
        const take = Math.min(chunk.byteLength, PART_BYTES - filled);
        buffer.set(chunk.subarray(0, take), filled);
        filled += take;
        chunk = chunk.subarray(take);
        if (filled === PART_BYTES) {
          upload ??= await env.FILES.createMultipartUpload(key, { httpMetadata });
          uploaded.push(await upload.uploadPart(uploaded.length + 1, buffer));
          buffer = new Uint8Array(PART_BYTES);
          filled = 0;
        }
      }
    }
    if (size < range.min) throw new TooLarge(`The file is ${size} bytes; at least ${range.min} are required.`);
    if (!upload) {
      await env.FILES.put(key, buffer.subarray(0, filled), { httpMetadata });
      return size;
    }
    if (filled) uploaded.push(await upload.uploadPart(uploaded.length + 1, buffer.subarray(0, filled)));
    await upload.complete(uploaded);
    return size;
  } catch (err) {
    await parts.cancel().catch(() => undefined);
    await upload?.abort().catch(() => undefined);
    throw err;
  }
}

/** Content-Length of a request, when it states one. */
export function bodyLengthOf(request: Request): number | null {
  const raw = request.headers.get("Content-Length");
  if (raw === null || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

export const notMultipart = () => badRequest("Send multipart/form-data with a boundary.", undefined, "parse_error");
