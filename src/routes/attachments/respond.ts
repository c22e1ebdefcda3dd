import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { attachmentRecord, type AttachmentRow } from "../../services/records/attachments";
import { downloadTtlSeconds } from "../../services/uploads/settings";
import { signedDownloadUrl } from "../../services/uploads/urls";
import { extractLater } from "../../services/uploads/reading";
import type { OrgAccess } from "../../services/access";
import { createAttachment } from "../../services/uploads/attachments";
import type { AttachmentCreate } from "./schema";

/** The record with a fresh signed URL. */
export async function recordOf(c: Context<AppEnv>, row: AttachmentRow) {
  return attachmentRecord(
    row,
    await signedDownloadUrl(c.env, new URL(c.req.url).origin, row.key, downloadTtlSeconds(c.env)),
  );
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
  extractLater(c.env, c.var.data, (p) => c.executionCtx.waitUntil(p), [row]);
  return recordOf(c, row);
}
