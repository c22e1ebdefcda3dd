import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { attachmentRecord, type AttachmentRow } from "../../services/records/attachments";
import { downloadTtlSeconds } from "../../services/uploads/settings";
import { signedDownloadUrl } from "../../services/uploads/urls";
import { extractAttachment } from "../../services/uploads/reading";

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
      c.executionCtx.waitUntil(extractAttachment(c.env, c.var.db, row).catch((err) => console.error(String(err))));
}
