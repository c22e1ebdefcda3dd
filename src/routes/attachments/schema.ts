import { z } from "@hono/zod-openapi";
import { nameText, Timestamp, uuidParam } from "../../lib/openapi";

export const AttachmentTypeSchema = z
  .enum(["image", "video", "audio", "sticker", "other"])
  .openapi({ description: "Inferred from the content type when absent", example: "image" });

export const AttachmentSchema = z
  .object({
    id: z.string().openapi({ description: "The attachment's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    type: AttachmentTypeSchema,
    filename: z.string().openapi({ description: "Name shown for the file", example: "cat.png" }),
    file: z.string().openapi({
      description: "Signed download URL; it expires (ATTACHMENT_URL_TTL_SECONDS, default 1 hour)",
      example: "https://api.example.com/api/v1/uploads/uploads/.../cat.png?X-Amz-Signature=...",
    }),
    conversation: z.string().nullable().openapi({
      description: "Conversation the attachment belongs to",
      example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e",
    }),
    contentType: z.string().openapi({ description: "The file's media type, as stored", example: "image/png" }),
    size: z.number().int().openapi({ description: "Bytes", example: 12345 }),
    downloadStatus: z.literal("done").openapi({ description: "The file is stored", example: "done" }),
    extractionStatus: z
      .enum(["none", "pending", "done", "failed"])
      .openapi({ description: "Documents: whether their text was read for the assistant", example: "none" }),
    expiresAt: Timestamp.nullable().openapi({
      description:
        "When it is deleted automatically if never sent in a conversation; null once it is (or when cleanup is off)",
      example: null,
    }),
    createdAt: Timestamp,
  })
  .openapi("Attachment");

export const AttachmentCreate = z
  .object({
    type: AttachmentTypeSchema.optional(),
    filename: nameText(255).openapi({ description: "Name shown for the file", example: "cat.png" }),
    file: z.string().trim().min(1).max(2048).openapi({
      description:
        "`fields.key` of the upload, or an absolute URL of an object of ours; other URLs are 400 (never fetched)",
      example: "uploads/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d/attachment/5f0c.../cat.png",
    }),
    conversation: z.uuid().optional().openapi({
      description: "Conversation to attach to (of your organization)",
      example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3e",
    }),
  })
  .openapi("AttachmentCreate");

export const ConversationParams = z.object({ conversationPk: uuidParam("conversationPk", "Conversation id") });
