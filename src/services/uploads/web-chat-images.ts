import { and, gte, inArray, lt } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { uploads } from "../../db/schema";
import { fieldError } from "../../lib/errors";
import { deletePrefix } from "../../lib/r2";
import { uuidv7 } from "../../lib/ids";
import { countIfUnseen } from "./allowance";
import { noAttachmentNames } from "./attachments";
import { checkFile, contentTypeFor, fileSpecs, mediaType } from "./file-specs";
import { findUpload, organizationOfKey, safeFilename, type UploadRow } from "./store";
import { keyOfFile } from "./urls";

/** The web chat fields an uploaded image may fill: the `webChat` fields of allowed-file-specs. */
export const WEB_CHAT_IMAGE_FIELDS = ["avatar", "logo"] as const;
type ImageField = (typeof WEB_CHAT_IMAGE_FIELDS)[number];

/** An http(s) URL, or what names an upload (a key has no scheme). */
export function isImageRef(value: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(value)) return true;
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

export interface PublishedImages {
  /** The public URL that replaces each uploaded key in the input. */
  urls: Partial<Record<ImageField, string>>;
  /**
   * Once the web chat's write is stored: the consumed upload rows give way to rows of the public copies (they are in
   * the organization's data plane, the web chat in `DB`, so not in one batch), then the private objects go, except
   * those an attachment names (attachments take any upload of the organization): theirs stay with their rows. The
   * public rows keep the images' bytes in the organization's stored uploads (uploads/allowance.ts) until they are
   * replaced, cleared or their web chat deleted.
   */
  done: () => Promise<void>;
  /** When the web chat's write is refused or fails: the public copies go (no row counts them yet), uploads stay. */
  discard: () => Promise<void>;
}

/**
 * Web chat images given as the key (or our URL) of a `web-chat` upload for that field: checked
 * against the field's spec, then copied under `public/` (the widget shows them to anonymous
 * visitors, as organization logos) and replaced by their public URL. External URLs and null are
 * left as given. A key that names no such upload of the organization is 400 at its field.
 */
export async function publishWebChatImages(
  env: Bindings,
  data: Db,
  scope: { organizationId: string; webChatId: string; origin: string },
  input: Partial<Record<ImageField, string | null | undefined>>,
): Promise<PublishedImages> {
  const found: { field: ImageField; key: string; upload: UploadRow; size: number; contentType: string }[] = [];
  // Every image is checked before any is copied: a refused write leaves nothing behind.
  for (const field of WEB_CHAT_IMAGE_FIELDS) {
    const value = input[field];
    if (!value) continue;
    const key = await keyOfFile(env, scope.origin, value);
    if (!key) continue; // an external URL
    const missing = () =>
      fieldError(
        field,
        `No uploaded web-chat image of your organization has this key: upload it with upload-presigned-url/ ` +
          `(modelName web-chat, fieldName ${field}) first.`,
      );
    if (organizationOfKey(key) !== scope.organizationId) throw missing();
    const [upload, head] = await Promise.all([findUpload(data, scope.organizationId, key), env.FILES.head(key)]);
    if (!upload || !head || upload.modelName !== "web-chat" || upload.fieldName !== field) throw missing();
    const spec = fileSpecs(env).webChat[field];
    const contentType = mediaType(head.httpMetadata?.contentType) || contentTypeFor(upload.filename, spec);
    checkFile(spec, { filename: upload.filename, contentType, size: head.size }, field, false);
    await countIfUnseen(env, data, upload, head.size);
    found.push({ field, key, upload, size: head.size, contentType });
  }
  const urls: PublishedImages["urls"] = {};
  const published: (typeof uploads.$inferInsert)[] = [];
  const discard = async () => {
    if (published.length) await env.FILES.delete(published.map((p) => p.key));
  };
  for (const { field, key, upload, size, contentType } of found) {
    const object = await env.FILES.get(key);
    if (!object) {
      await discard();
      throw fieldError(field, "The uploaded image is gone; upload it again.");
    }
    const path = `web-chats/${scope.webChatId}/${uuidv7()}-${safeFilename(upload.filename)}`;
    await env.FILES.put(`public/${path}`, await object.arrayBuffer(), { httpMetadata: { contentType } });
    urls[field] = `${scope.origin}/api/v1/files/public/${path}`;
    const now = Date.now();
    published.push({
      ...upload,
      key: `public/${path}`,
      contentType,
      maxSize: size,
      size,
      uploadedAt: now,
      claimedAt: now,
      expiresAt: null,
      createdAt: now,
    });
  }
  const keys = found.map((f) => f.key);
  return {
    urls,
    done: async () => {
      if (!keys.length) return;
      // Whether an attachment names a key is asked in the statement that deletes its row, so one made meanwhile counts.
      const [removed] = await data.batch([
        data
          .delete(uploads)
          .where(and(inArray(uploads.key, keys), noAttachmentNames()))
          .returning({ key: uploads.key }),
        data.insert(uploads).values(published),
      ]);
      if (removed.length) await env.FILES.delete(removed.map((r) => r.key));
    },
    discard,
  };
}

/**
 * The objects of this web chat's published images that `before` showed and `after` no longer
 * shows in any image field: removed once the write that replaced or cleared them is stored. Only
 * files published for this web chat count, whatever URL a field was given.
 */
export function replacedWebChatImages(
  webChatId: string,
  before: Partial<Record<ImageField, unknown>>,
  after: Partial<Record<ImageField, unknown>>,
): string[] {
  const objectOf = (url: unknown) => {
    const path =
      typeof url === "string" ? /\/api(?:\/v1)?\/files\/public\/(web-chats\/[^?#]+)$/.exec(url)?.[1] : undefined;
    return path?.startsWith(`web-chats/${webChatId}/`) && !path.includes("..") ? `public/${path}` : null;
  };
  const kept = new Set(WEB_CHAT_IMAGE_FIELDS.map((field) => objectOf(after[field])));
  const shown = WEB_CHAT_IMAGE_FIELDS.map((field) => objectOf(before[field])).filter(
    (key): key is string => !!key && !kept.has(key),
  );
  return [...new Set(shown)];
}

/** Removes published files (their objects under `public/`) and their rows, which count them in the stored uploads. */
export async function removePublishedFiles(env: Bindings, data: Db, keys: string[]) {
  if (!keys.length) return;
  await data.delete(uploads).where(inArray(uploads.key, keys));
  await env.FILES.delete(keys);
}

/** Removes every public file published for a web chat and their rows (once the web chat itself is deleted). */
export async function removeWebChatImages(env: Bindings, data: Db, webChatId: string) {
  const prefix = `public/web-chats/${webChatId}/`;
  // The keys under the prefix, as a range of the primary key: "0" is the character after "/".
  await data.delete(uploads).where(and(gte(uploads.key, prefix), lt(uploads.key, `${prefix.slice(0, -1)}0`)));
  await deletePrefix(env.FILES, prefix);
}
