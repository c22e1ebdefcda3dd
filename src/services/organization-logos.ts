import { z } from "@hono/zod-openapi";
import { ApiError, fieldError } from "../lib/errors";
import { uuidv7 } from "../lib/ids";
import type { FileSpec } from "./uploads/file-specs";

/** Logo uploads (multipart form of v1, enterprise plan only). */
export const LOGO_FIELDS = ["compactLogo", "fullLogo"] as const;
export type LogoField = (typeof LOGO_FIELDS)[number];
export const LOGO_MAX_BYTES = 5_242_880;
const LOGO_TYPES: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif" };

/** Bounds the whole multipart body before it is read: both logos plus the text parts. */
export const MULTIPART_MAX_BYTES = 2 * LOGO_MAX_BYTES + 64 * 1024;

/** A logo given as a URL: http(s) only, as in the JSON form. */
const urlSchema = z.httpUrl().max(2048);

/**
 * What a multipart logo part asks for: a file to store, a URL, or null (an empty part clears it).
 * Checks type and size; throws 400 / 413 naming the field.
 */
export function readLogoPart(field: LogoField, value: unknown, spec: FileSpec): File | string | null | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw fieldError(field, "Send one file.");
  if (typeof value === "string") {
    if (value.trim() === "") return null;
    if (!urlSchema.safeParse(value).success) throw fieldError(field, "Must be an image file or an http(s) URL.");
    return value;
  }
  if (!(value instanceof File)) throw fieldError(field, "Must be an image file.");
  const type = value.type.split(";")[0].trim().toLowerCase();
  if (!LOGO_TYPES[type] || !spec.content_types.includes(type)) {
    throw fieldError(
      field,
      `Unsupported image type "${value.type || "unknown"}"; use ` +
        `${spec.content_types.filter((t) => LOGO_TYPES[t]).join(", ")}.`,
    );
  }
  const max = Math.min(spec.max_size, LOGO_MAX_BYTES);
  if (value.size > max)
    throw new ApiError(413, "payload_too_large", `${field} exceeds ${max} bytes.`, {
      [field]: [`At most ${max} bytes.`],
    });
  if (value.size === 0) throw fieldError(field, "The file is empty.");
  return value;
}

/** `Logo.PNG` -> `Logo.png`; anything but letters, digits, dot, dash and underscore becomes `_`. */
function safeFilename(name: string, type: string): string {
  const base = (name.split(/[\\/]/).pop() ?? "").replace(/\.[^.]*$/, "");
  const clean =
    base
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .replace(/^[._]+/, "")
      .slice(0, 80) || "logo";
  return `${clean}.${LOGO_TYPES[type.split(";")[0].trim().toLowerCase()]}`;
}

/** Stores the file in R2 under the public prefix and returns its absolute URL on `origin`. */
export async function storeLogo(files: R2Bucket, origin: string, organizationId: string, file: File): Promise<string> {
  const path = `organizations/${organizationId}/${uuidv7()}-${safeFilename(file.name, file.type)}`;
  await files.put(`public/${path}`, await file.arrayBuffer(), {
    httpMetadata: { contentType: file.type.split(";")[0].trim().toLowerCase() },
  });
  return `${origin}/api/v1/files/public/${path}`;
}
