import { z } from "@hono/zod-openapi";
import type { NewUpload } from "./uploads/allowance";
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

/**
 * Stores the file in R2 under the public prefix; returns its absolute URL on `origin` and the upload row that counts
 * its bytes in the organization's stored uploads (uploads/allowance.ts), for the caller to write once the logo is set.
 */
export async function storeLogo(
  files: R2Bucket,
  origin: string,
  organizationId: string,
  field: LogoField,
  file: File,
): Promise<{ url: string; row: NewUpload }> {
  const path = `organizations/${organizationId}/${uuidv7()}-${safeFilename(file.name, file.type)}`;
  const contentType = file.type.split(";")[0].trim().toLowerCase();
  await files.put(`public/${path}`, await file.arrayBuffer(), { httpMetadata: { contentType } });
  const now = Date.now();
  const row = {
    key: `public/${path}`,
    organizationId,
    modelName: "organization",
    fieldName: field === "compactLogo" ? "compact_logo" : "full_logo",
    filename: file.name,
    contentType,
    maxSize: file.size,
    size: file.size,
    uploadedAt: now,
    claimedAt: now,
    createdAt: now,
  };
  return { url: `${origin}/api/v1/files/public/${path}`, row };
}

/** The key of a logo file stored for the organization, from its URL; null for any other URL. */
function logoKeyOf(organizationId: string, url: unknown): string | null {
  const path =
    typeof url === "string" ? /\/api(?:\/v1)?\/files\/public\/(organizations\/[^?#]+)$/.exec(url)?.[1] : undefined;
  return path?.startsWith(`organizations/${organizationId}/`) && !path.includes("..") ? `public/${path}` : null;
}

type Logos = Partial<Record<LogoField, unknown>>;

/** The stored logo files `before` showed that `after` (the fields an update sets) no longer shows in either field. */
export function replacedLogos(organizationId: string, before: Logos, after: Logos): string[] {
  const now = { ...before, ...after };
  const kept = new Set(LOGO_FIELDS.map((field) => logoKeyOf(organizationId, now[field])));
  const shown = LOGO_FIELDS.filter((field) => field in after).map((field) => logoKeyOf(organizationId, before[field]));
  return [...new Set(shown.filter((key): key is string => !!key && !kept.has(key)))];
}
