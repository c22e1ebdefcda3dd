import type { z } from "@hono/zod-openapi";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { attachments, uploads, ATTACHMENT_TYPES } from "../../db/schema";
import { badRequest, fieldError } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import { inList } from "../../lib/sql";
import { fileTypeOf } from "../parsing";
import {
  type AttachmentInput as MessageAttachmentBody,
  messageAttachment,
  type AttachmentRow,
} from "../records/attachments";
import { countIfUnseen } from "./allowance";
import { checkFile, contentTypeFor, fileSpecs, mediaType } from "./file-specs";
import { MESSAGE_URL_TTL_SECONDS, unattachedTtlMs } from "./settings";
import { extractLater } from "./reading";
import { findUpload, organizationOfKey, type UploadRow } from "./store";
import { keyOfFile, signedDownloadUrl } from "./urls";

export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

export interface AttachmentScope {
  organizationId: string;
  userId: string | null;
  /** Origin of the request: our own object URLs are on it. */
  origin: string;
}

export interface AttachmentInput {
  file: string;
  filename: string;
  type?: AttachmentType | null;
  conversationId?: string | null;
}

/** `image/png` -> image; audio and video likewise; anything else other (stickers are only ever said). */
export function inferType(contentType: string): AttachmentType {
  const top = mediaType(contentType).split("/")[0];
  return top === "image" || top === "audio" || top === "video" ? top : "other";
}

export async function findAttachment(data: Db, organizationId: string, id: string): Promise<AttachmentRow | null> {
  const [row] = await data
    .select()
    .from(attachments)
    .where(and(eq(attachments.id, id), eq(attachments.organizationId, organizationId)));
  return row ?? null;
}

export const NOT_OURS =
  "Only files uploaded to this service can be attached: upload it with upload-presigned-url/ or " +
  "attachments-upload/ and pass the returned key (other URLs are never fetched).";

/**
 * An attachment from an object the organization uploaded: the key (or our URL of it) must name an
 * upload of this organization whose object exists, within the attachment file spec. Nothing is
 * fetched from anywhere else. The upload is marked claimed, so the cleanup keeps it.
 */
export async function createAttachment(
  env: Bindings,
  data: Db,
  scope: AttachmentScope,
  input: AttachmentInput,
  field = "file",
): Promise<AttachmentRow> {
  const { row } = await prepareAttachment(env, data, scope, input, field);
  await data.batch(attachmentWrites(data, row));
  return row;
}

/**
 * The checks of `createAttachment` and the row it would write, without writing: callers that create
 * several attachments check them all first, then write them in one batch (nothing half-written).
 * Also returns the upload the key names (its `createdBy` says who asked for it).
 */
export async function prepareAttachment(
  env: Bindings,
  data: Db,
  scope: AttachmentScope,
  input: AttachmentInput,
  field = "file",
): Promise<{ row: AttachmentRow; upload: UploadRow }> {
  const key = await keyOfFile(env, scope.origin, input.file);
  if (!key) throw fieldError(field, NOT_OURS);
  if (organizationOfKey(key) !== scope.organizationId)
    throw fieldError(field, "No uploaded object of your organization has this key.");
  const [upload, head] = await Promise.all([findUpload(data, scope.organizationId, key), env.FILES.head(key)]);
  if (!upload || !head) throw fieldError(field, "No uploaded object of your organization has this key.");
  const filename = input.filename.trim() || upload.filename;
  const contentType = mediaType(head.httpMetadata?.contentType) || contentTypeFor(filename);
  checkFile(fileSpecs(env).attachment.file, { filename, contentType, size: head.size }, field, true);
  await countIfUnseen(env, data, upload, head.size);
  const document = fileTypeOf(filename, contentType) !== null;
  const ttl = unattachedTtlMs(env);
  const now = Date.now();
  const row: AttachmentRow = {
    id: uuidv7(now),
    organizationId: scope.organizationId,
    conversationId: input.conversationId ?? null,
    key,
    filename,
    type: input.type ?? inferType(contentType),
    contentType,
    size: head.size,
    extractionStatus: document ? "pending" : "none",
    extractedText: null,
    extractionError: null,
    createdBy: scope.userId,
    expiresAt: input.conversationId || ttl === null ? null : now + ttl,
    createdAt: now,
  };
  return { row, upload };
}

/** The writes that create a prepared attachment and mark its upload claimed (for `data.batch`). */
export const attachmentWrites = (data: Db, row: AttachmentRow) =>
  [
    data.insert(attachments).values(row),
    data.update(uploads).set({ claimedAt: row.createdAt, size: row.size }).where(eq(uploads.key, row.key)),
  ] as const;

/** Removes an attachment and its object (the object stays while another attachment names it). */
export async function deleteAttachment(env: Bindings, data: Db, row: AttachmentRow) {
  await data.delete(attachments).where(eq(attachments.id, row.id));
  await deleteObjectsIfUnused(env, data, [row.key]);
}

/**
 * Upload rows whose object no attachment names. Attachments take any upload of the organization (CONTRACT section
 * 10: the key of any presigned upload), so whatever else consumes an upload leaves it to the attachment.
 */
export const noAttachmentNames = () =>
  sql`not exists (select 1 from ${attachments} where ${attachments.key} = ${uploads.key})`;

/** The uploads of the organization among `keys` that no attachment names, with their sizes (null: not arrived). */
export async function unattachedUploads(data: Db, organizationId: string, keys: string[]) {
  if (!keys.length) return [];
  return data
    .select({ key: uploads.key, size: uploads.size })
    .from(uploads)
    .where(
      and(eq(uploads.organizationId, organizationId), inList(uploads.key, [...new Set(keys)]), noAttachmentNames()),
    );
}

/** Deletes the objects (and upload rows) of keys no attachment names any more. */
export async function deleteObjectsIfUnused(env: Bindings, data: Db, keys: string[]) {
  if (!keys.length) return;
  const used = new Set(
    (await data.select({ key: attachments.key }).from(attachments).where(inArray(attachments.key, keys))).map(
      (r) => r.key,
    ),
  );
  const gone = keys.filter((k) => !used.has(k));
  if (!gone.length) return;
  await env.FILES.delete(gone);
  await data.delete(uploads).where(inArray(uploads.key, gone));
}

/** Deleted conversations' attachments in `data` and their objects (an object stays while an attachment names it). */
export async function deleteConversationAttachments(env: Bindings, data: Db, conversationIds: string[]) {
  if (!conversationIds.length) return;
  const rows = await data
    .delete(attachments)
    .where(inArray(attachments.conversationId, conversationIds))
    .returning({ key: attachments.key });
  await deleteObjectsIfUnused(env, data, [...new Set(rows.map((r) => r.key))]);
}

/**
 * A message's `attachments` as given by a client, once parsed: an `id`, or a `file` and its
 * `filename` (`conversation` is accepted and ignored).
 */
export type MessageAttachmentInput = z.output<typeof MessageAttachmentBody>;

/**
 * Resolves a message's attachments to attachment records: by `id`, or by `file` naming one of our
 * objects (an existing attachment of that key, else a new one). They join the conversation (an
 * attachment of another conversation is 400). A foreign URL stays an external reference the
 * service never fetches nor reads. Returns what the message stores, and the attachments whose
 * documents still need their text extracted.
 */
export async function resolveMessageAttachments(
  env: Bindings,
  data: Db,
  scope: AttachmentScope,
  conversationId: string,
  inputs: MessageAttachmentInput[] | undefined,
  field = "attachments",
): Promise<{ stored: Record<string, unknown>[] | undefined; pending: AttachmentRow[] }> {
  if (!inputs?.length) return { stored: inputs as undefined, pending: [] };
  const stored: Record<string, unknown>[] = [];
  const rows: AttachmentRow[] = [];
  for (const [i, input] of inputs.entries()) {
    const at = `${field}.${i}`;
    let row: AttachmentRow | null = null;
    if (input.id) {
      row = await findAttachment(data, scope.organizationId, input.id);
      if (!row) throw fieldError(`${at}.id`, "No attachment with this id in your organization.");
    } else {
      // The routes' schemas ask for both without an id; this holds any other caller to the same rule.
      const { file, filename } = input;
      if (file === undefined) throw fieldError(`${at}.file`, "Required without id.");
      if (filename === undefined) throw fieldError(`${at}.filename`, "Required without id.");
      const key = await keyOfFile(env, scope.origin, file);
      if (key) {
        const [existing] = await data
          .select()
          .from(attachments)
          .where(and(eq(attachments.organizationId, scope.organizationId), eq(attachments.key, key)))
          .limit(1);
        row =
          existing ??
          (await createAttachment(
            env,
            data,
            scope,
            { file: key, filename, type: input.type, conversationId },
            `${at}.file`,
          ));
      } else {
        // Not ours: a link kept as a reference, which the console and webhook receivers open, so http(s) only.
        if (!/^https?:\/\//i.test(file))
          throw fieldError(`${at}.file`, "Send the key of an upload, or an http(s) URL.");
        stored.push({
          id: null,
          type: input.type ?? "other",
          filename,
          file,
          sourceUrl: file,
        });
        continue;
      }
    }
    if (row.conversationId && row.conversationId !== conversationId)
      throw fieldError(at, "The attachment belongs to another conversation.");
    rows.push(row);
    stored.push(
      messageAttachment(
        { ...row, conversationId },
        await signedDownloadUrl(env, scope.origin, row.key, MESSAGE_URL_TTL_SECONDS),
      ),
    );
  }
  const joining = rows.filter((r) => !r.conversationId).map((r) => r.id);
  if (joining.length) {
    await data
      .update(attachments)
      .set({ conversationId, expiresAt: null })
      .where(and(inArray(attachments.id, joining), isNull(attachments.conversationId)));
  }
  return { stored, pending: rows.filter((r) => r.extractionStatus === "pending") };
}

/**
 * A posted message's `attachments` as the conversation stores them (resolveMessageAttachments: our uploads become
 * attachment records of the conversation, another organization's is 400), their documents read in the background
 * (in `scope.waitUntil`).
 */
export async function messageAttachments<T extends MessageAttachmentInput>(
  env: Bindings,
  data: Db,
  scope: AttachmentScope & { waitUntil: (p: Promise<unknown>) => void },
  conversationId: string,
  attachments: T[] | undefined,
): Promise<T[] | undefined> {
  if (!attachments?.length) return attachments;
  const { stored, pending } = await resolveMessageAttachments(env, data, scope, conversationId, attachments);
  extractLater(env, data, scope.waitUntil, pending);
  return stored as T[];
}

export const attachmentTypeError = () => badRequest(`type must be one of ${ATTACHMENT_TYPES.join(", ")}.`);
