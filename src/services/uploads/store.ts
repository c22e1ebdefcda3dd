import { and, eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { uploads } from "../../db/schema";
import { badRequest } from "../../lib/errors";
import { MultipartError, type MultipartReader } from "./multipart";

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

/**
 * Writes the reader's current part to R2 under `key`. With the body's length known (Content-Length,
 * the file the last part), the part's length is known before a byte is written: R2 takes the bytes
 * as they arrive through a FixedLengthStream, and a body whose end is not where its length says
 * fails the write, so nothing is stored. Without it, the part is read up to `maxSize` and then put.
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
    const size = bodyLength - reader.position - reader.closingLength;
    if (size < 0) throw new MultipartError("The body is shorter than its parts.");
    if (size > range.max) throw new TooLarge(`The file is ${size} bytes; at most ${range.max} are allowed.`);
    if (size < range.min) throw new TooLarge(`The file is ${size} bytes; at least ${range.min} are required.`);
    const { readable, writable } = new FixedLengthStream(size);
    const put = env.FILES.put(key, readable, { httpMetadata });
    const piped = reader.stream().pipeTo(writable);
    const [pipe, stored] = await Promise.allSettled([piped, put]);
    if (pipe.status === "rejected") {
      await env.FILES.delete(key).catch(() => undefined);
      throw pipe.reason instanceof MultipartError ? pipe.reason : new MultipartError("The file part does not end where the body's length says (send `file` as the last part).");
    }
    if (stored.status === "rejected") throw stored.reason;
    return size;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const parts = reader.stream().getReader();
  for (;;) {
    const { done, value } = await parts.read();
    if (done) break;
    size += value.byteLength;
    if (size > range.max) {
      await parts.cancel();
      throw new TooLarge(`The file is larger than ${range.max} bytes.`);
    }
    chunks.push(value);
  }
  if (size < range.min) throw new TooLarge(`The file is ${size} bytes; at least ${range.min} are required.`);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) (bytes.set(c, at), (at += c.byteLength));
  await env.FILES.put(key, bytes, { httpMetadata });
  return size;
}

/** Content-Length of a request, when it states one. */
export function bodyLengthOf(request: Request): number | null {
  const raw = request.headers.get("Content-Length");
  if (raw === null || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

export const notMultipart = () => badRequest("Send multipart/form-data with a boundary.", undefined, "parse_error");
