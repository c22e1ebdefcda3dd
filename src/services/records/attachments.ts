import { ms } from "../../lib/time";
import type { attachments } from "../../db/schema";

export type AttachmentRow = typeof attachments.$inferSelect;

/** The attachment record of CONTRACT section 10; `file` is a signed URL that expires. */
export interface AttachmentRecord {
  id: string;
  type: AttachmentRow["type"];
  filename: string;
  file: string;
  conversation: string | null;
  contentType: string;
  size: number;
  downloadStatus: "done";
  extractionStatus: AttachmentRow["extractionStatus"];
  expiresAt: string | null;
  createdAt: string;
}

/** How a message carries an attachment (stored in `messages.attachments`). */
export const messageAttachment = (row: AttachmentRow, signedUrl: string) => ({
  id: row.id,
  type: row.type,
  filename: row.filename,
  file: signedUrl,
  conversation: row.conversationId,
  contentType: row.contentType,
  size: row.size,
});

export const attachmentRecord = (row: AttachmentRow, signedUrl: string): AttachmentRecord => ({
  ...messageAttachment(row, signedUrl),
  downloadStatus: "done",
  extractionStatus: row.extractionStatus,
  expiresAt: ms(row.expiresAt),
  createdAt: ms(row.createdAt)!,
});
