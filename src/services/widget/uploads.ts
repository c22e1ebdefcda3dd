import type { z } from "@hono/zod-openapi";
import { and, eq, inArray } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { attachments, uploads } from "../../db/schema";
import { ApiError, fieldError, unauthenticated } from "../../lib/errors";
import { messageAttachment, type AttachmentRow } from "../records/attachments";
import type { WidgetAttachmentInput } from "../records/widget";
import { attachmentWrites, NOT_OURS, prepareAttachment } from "../uploads/attachments";
import { presignUpload, type PresignedUpload } from "../uploads/presign";
import { MESSAGE_URL_TTL_SECONDS } from "../uploads/settings";
import { organizationOfKey } from "../uploads/store";
import { keyOfFile, signedDownloadUrl } from "../uploads/urls";
import { type Visitor, visitorContact } from "./visitors";
import type { PublicWebChat } from "./web-chats";

/**
 * Visitors' files are conversation attachments: they are presigned against the allowed-file-specs
 * `attachment` spec (the one every attachment is checked against when it is created), not `webChat`,
 * whose fields are the web chat's own logo and avatar images.
 */
export const VISITOR_UPLOAD = { modelName: "attachment", fieldName: "file" } as const;

/** The `createdBy` of a visitor's uploads and attachments: only that visitor may send them. */
export const visitorUploader = (contactId: string) => `contact:${contactId}`;

/** 403 `file_upload_disabled` unless the web chat lets visitors attach files (enableFileUpload). */
export function requireFileUpload(chat: PublicWebChat) {
  if (chat.webChat.settings.enableFileUpload !== true)
    throw new ApiError(403, "file_upload_disabled", "This web chat does not accept files.");
}

/** A presigned upload (CONTRACT section 10) of a visitor's file, keyed under the web chat's organization. */
export async function presignVisitorUpload(
  env: Bindings,
  data: Db,
  chat: PublicWebChat,
  visitor: Visitor,
  origin: string,
  file: { filename: string; fileSize: number },
): Promise<PresignedUpload> {
  requireFileUpload(chat);
  // A deleted contact's token lives on until it lapses; its uploads could never be sent (the send refuses it), so
  // they would only spend the organization's upload bytes.
  if (!(await visitorContact(data, chat, visitor)))
    throw unauthenticated("The visitor no longer exists; start a new session.");
  return presignUpload(env, data, {
    organizationId: chat.webChat.organizationId,
    userId: visitorUploader(visitor.contactId),
    origin,
    ...VISITOR_UPLOAD,
    filename: file.filename,
    fileSize: file.fileSize,
  });
}

/** A file of a visitor's message: an entry of the send body's `attachments`, once parsed (trimmed). */
export type VisitorAttachmentInput = z.output<typeof WidgetAttachmentInput>;

const NOT_YOURS = "No file you uploaded in this chat has this key.";

/**
 * The attachments of a visitor's message: each `file` must be the key (or our URL) of an upload this
 * visitor asked for in the web chat's organization; a foreign URL is 400 and never fetched, as is a
 * key of another organization, of another visitor or of a staff member. All are checked before any
 * is written, then written in one batch. A file the visitor already sent in this conversation is
 * sent again as the same attachment. Returns what the message stores and the rows written (for
 * `forgetAttachments` should the message not be taken).
 */
export async function visitorAttachments(
  env: Bindings,
  data: Db,
  chat: PublicWebChat,
  visitor: Visitor,
  origin: string,
  conversationId: string,
  inputs: VisitorAttachmentInput[],
): Promise<{ stored: Record<string, unknown>[]; written: AttachmentRow[] }> {
  const organizationId = chat.webChat.organizationId;
  const uploader = visitorUploader(visitor.contactId);
  const at = (i: number) => `attachments.${i}.file`;
  const keys = await Promise.all(
    inputs.map(async (input, i) => {
      const key = await keyOfFile(env, origin, input.file);
      if (!key) throw fieldError(at(i), NOT_OURS);
      if (organizationOfKey(key) !== organizationId) throw fieldError(at(i), NOT_YOURS);
      return key;
    }),
  );
  if (new Set(keys).size !== keys.length) throw fieldError("attachments", "The same file is attached twice.");
  const existing = await data
    .select()
    .from(attachments)
    .where(and(eq(attachments.organizationId, organizationId), inArray(attachments.key, keys)));
  const scope = { organizationId, userId: uploader, origin };
  const rows = await Promise.all(
    inputs.map(async (input, i) => {
      const sent = existing.find((r) => r.key === keys[i]);
      if (sent) {
        if (sent.createdBy !== uploader || sent.conversationId !== conversationId) throw fieldError(at(i), NOT_YOURS);
        return { row: sent, fresh: false };
      }
      const { row, upload } = await prepareAttachment(
        env,
        data,
        scope,
        { file: keys[i], filename: input.filename, conversationId },
        at(i),
      );
      if (upload.createdBy !== uploader || upload.modelName !== VISITOR_UPLOAD.modelName)
        throw fieldError(at(i), NOT_YOURS);
      return { row, fresh: true };
    }),
  );
  const written = rows.filter((r) => r.fresh).map((r) => r.row);
  if (written.length) await data.batch(written.flatMap((row) => attachmentWrites(data, row)) as never);
  const stored = await Promise.all(
    rows.map(async ({ row }) =>
      messageAttachment(row, await signedDownloadUrl(env, origin, row.key, MESSAGE_URL_TTL_SECONDS)),
    ),
  );
  return { stored, written };
}

/** Undoes `visitorAttachments` when the message was refused: the rows go, the uploads are unclaimed (the cleanup then
 * removes them). */
export async function forgetAttachments(data: Db, rows: AttachmentRow[]) {
  if (!rows.length) return;
  await data.batch([
    data.delete(attachments).where(
      inArray(
        attachments.id,
        rows.map((r) => r.id),
      ),
    ),
    data
      .update(uploads)
      .set({ claimedAt: null })
      .where(
        inArray(
          uploads.key,
          rows.map((r) => r.key),
        ),
      ),
  ]);
}
