import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id } from "./columns";

/**
 * Objects a client was allowed to upload (a presigned URL issued, or a direct upload stored), keyed
 * by their R2 key, and the other stored files of the organization's uploads that have no row of their own: a
 * channel's media (with their attachments) and the public copies of web chat images and logos (`public/...` keys).
 * Their `size` is what the organization's uploads store (services/uploads/allowance.ts).
 * `uploadedAt` is set when the bytes went through our own target (an R2 presigned
 * PUT lands without us: the object itself is the proof); `claimedAt` when an attachment took it.
 * Rows and objects never claimed are removed by the scheduled cleanup once `expiresAt` is past.
 * No foreign keys: the cleanup also removes rows (and their objects) of deleted organizations,
 * which a cascade would drop without the objects.
 */
export const uploads = sqliteTable(
  "uploads",
  {
    key: text("key").primaryKey(),
    organizationId: text("organization_id").notNull(),
    modelName: text("model_name").notNull(),
    fieldName: text("field_name").notNull(),
    filename: text("filename").notNull(),
    contentType: text("content_type"),
    /** The largest size the upload was allowed (its policy's upper bound). */
    maxSize: integer("max_size").notNull(),
    size: integer("size"),
    createdBy: text("created_by"),
    uploadedAt: integer("uploaded_at"),
    claimedAt: integer("claimed_at"),
    /** When an unclaimed upload is deleted; null: kept (cleanup disabled). */
    expiresAt: integer("expires_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // With the size: what the organization's uploads store is summed from the index alone (uploads/allowance.ts).
    index("uploads_org_idx").on(t.organizationId, t.size),
    index("uploads_expiry_idx").on(t.claimedAt, t.expiresAt),
  ],
);

export const ATTACHMENT_TYPES = ["image", "video", "audio", "sticker", "other"] as const;
export const EXTRACTION_STATUSES = ["none", "pending", "done", "failed"] as const;

/**
 * A stored file given to a conversation (or waiting to be sent with a message). Documents have their
 * text extracted once (`extractionStatus`) for the assistant. No foreign keys, as for uploads: a
 * conversation of a new completion is stored after its attachments are resolved, and the cleanup
 * removes the objects of attachments whose conversation or organization is gone.
 */
export const attachments = sqliteTable(
  "attachments",
  {
    id: id(),
    organizationId: text("organization_id").notNull(),
    conversationId: text("conversation_id"),
    key: text("key").notNull(),
    filename: text("filename").notNull(),
    type: text("type", { enum: ATTACHMENT_TYPES }).notNull(),
    contentType: text("content_type").notNull().default("application/octet-stream"),
    size: integer("size").notNull().default(0),
    extractionStatus: text("extraction_status", { enum: EXTRACTION_STATUSES }).notNull().default("none"),
    extractedText: text("extracted_text"),
    extractionError: text("extraction_error"),
    createdBy: text("created_by"),
    /** When an attachment never sent in a conversation is deleted; null once it is (or cleanup is off). */
    expiresAt: integer("expires_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("attachments_org_idx").on(t.organizationId, t.createdAt),
    index("attachments_conversation_idx").on(t.conversationId),
    index("attachments_key_idx").on(t.key),
    index("attachments_expiry_idx").on(t.expiresAt),
  ],
);
