import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { attachmentRecord, type AttachmentRow } from "../../services/records/attachments";
import { downloadTtlSeconds } from "../../services/uploads/settings";
import { signedDownloadUrl } from "../../services/uploads/urls";
import { extractAttachment } from "../../services/uploads/reading";
import type { OrgAccess } from "../../services/access";
import {
  createAttachment,
  resolveMessageAttachments,
  type MessageAttachmentInput,
} from "../../services/uploads/attachments";
import type { AttachmentCreate } from "./schema";

/** The record with a fresh signed URL. */
export async function recordOf(c: Context<AppEnv>, row: AttachmentRow) {
  return attachmentRecord(
    row,
    await signedDownloadUrl(c.env, new URL(c.req.url).origin, row.key, downloadTtlSeconds(c.env)),
  );
}

/** Documents are read in the background once created; a reply that needs them waits or reads them itself. */
export function extractLater(c: Context<AppEnv>, rows: AttachmentRow[]) {
  for (const row of rows)
    if (row.extractionStatus === "pending")
      c.executionCtx.waitUntil(extractAttachment(c.env, c.var.data, row).catch((err) => console.error(String(err))));
}

/**
 * A posted message's `attachments` as the conversation stores them (resolveMessageAttachments: our uploads become
 * attachment records of the conversation, another organization's is 400), their documents read in the background.
 */
export async function messageAttachments<T extends MessageAttachmentInput>(
  c: Context<AppEnv>,
  organizationId: string,
  conversationId: string,
  attachments: T[] | undefined,
): Promise<T[] | undefined> {
  if (!attachments?.length) return attachments;
  const scope = { organizationId, userId: c.var.principal.userId, origin: new URL(c.req.url).origin };
  const { stored, pending } = await resolveMessageAttachments(c.env, c.var.data, scope, conversationId, attachments);
  extractLater(c, pending);
  return stored as T[];
}

/** Creates the caller's attachment of an uploaded file (in `conversationId`, or unattached), starts reading it, and
 * returns its record. */
export async function createdAttachment(
  c: Context<AppEnv>,
  access: OrgAccess,
  input: z.infer<typeof AttachmentCreate>,
  conversationId: string | undefined,
) {
  const scope = {
    organizationId: access.organizationId,
    userId: c.var.principal.userId,
    origin: new URL(c.req.url).origin,
  };
  const { file, filename, type } = input;
  const row = await createAttachment(c.env, c.var.data, scope, { file, filename, type, conversationId });
  extractLater(c, [row]);
  return recordOf(c, row);
}
