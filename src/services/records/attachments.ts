import { z } from "@hono/zod-openapi";
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

/**
 * An attachment as a message body names it (messages, agent replies, completions). Kept here
 * rather than in the messages route so that the attachments service derives its input from it
 * (services may not import routes).
 */
export const AttachmentInput = z
  .object({
    id: z
      .uuid()
      .optional()
      .openapi({ description: "An uploaded attachment", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    type: z.enum(["image", "video", "audio", "sticker", "other"]).optional().openapi({
      description: "What the file is; absent, an upload's is inferred from its content type (a link's is `other`)",
      example: "image",
    }),
    filename: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .openapi({ description: "Required without `id`; with it, the attachment's own is kept", example: "photo.png" }),
    file: z
      .string()
      .trim()
      .min(1)
      .max(2048)
      .optional()
      .openapi({
        description:
          "The key of an upload (`fields.key`), our URL of it, or an external link (kept as a reference, never " +
          "fetched); required without `id`, which names the file by itself",
        example: "https://cdn.example.com/photo.png",
      }),
    conversation: z.uuid().optional().openapi({
      description: "Accepted for clients that send it; the attachment joins the message's conversation",
      example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
    }),
  })
  // An attachment found by `id` brings its own file and name; anything else is known only by what is sent.
  .superRefine((a, ctx) => {
    if (a.id) return;
    for (const field of ["filename", "file"] as const)
      if (a[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message: "Required without id" });
  })
  .openapi("AttachmentInput");

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
