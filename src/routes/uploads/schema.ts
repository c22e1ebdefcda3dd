import { z } from "@hono/zod-openapi";
import { nameText } from "../../lib/openapi";

const FileSpecSchema = z
  .object({
    content_types: z
      .array(z.string())
      .openapi({ description: "Allowed media types", example: ["image/jpeg", "image/png", "image/gif"] }),
    extensions: z
      .array(z.string())
      .openapi({ description: "Allowed extensions, with the dot", example: [".jpg", ".jpeg", ".png", ".gif"] }),
    max_size: z.number().int().openapi({ description: "Largest file in bytes", example: 5242880 }),
  })
  .openapi("FileSpec");

const fields = (description: string, example: Record<string, unknown>) =>
  z.record(z.string(), FileSpecSchema).openapi({ description, example });
const logo = {
  content_types: ["image/jpeg", "image/png", "image/gif"],
  extensions: [".jpg", ".jpeg", ".png", ".gif"],
  max_size: 5242880,
};

export const AllowedFileSpecsSchema = z
  .object({
    webChat: fields("Web chat images, per field", { logo, avatar: { ...logo, max_size: 2097152 } }),
    organization: fields("Organization logos, per field", { compact_logo: logo, full_logo: logo }),
    attachment: fields("Conversation attachments", { file: { ...logo, max_size: 20971520 } }),
    chatbotFile: fields("Knowledge base files (older name); text formats at most 10 MiB", {
      file: { content_types: ["application/pdf"], extensions: [".pdf"], max_size: 20971520 },
    }),
    knowledgeBaseFile: fields("Knowledge base files; text formats (.txt, .md, .html, .csv, .json) at most 10 MiB", {
      file: { content_types: ["application/pdf"], extensions: [".pdf"], max_size: 20971520 },
    }),
    batchQa: fields("Batch question-and-answer imports", {
      file: { content_types: ["text/csv"], extensions: [".csv", ".xlsx"], max_size: 10485760 },
    }),
    meetingRecord: fields("Meeting recordings", {
      file: { content_types: ["audio/mpeg"], extensions: [".mp3"], max_size: 209715200 },
    }),
  })
  .openapi("AllowedFileSpecs");

const modelName = z.string().min(1).max(64).openapi({
  description: "attachment, chatbot-file, knowledge-base-file, web-chat, organization, batch-qa or meeting-record",
  example: "attachment",
});
const fieldName = z.string().min(1).max(64).openapi({
  description:
    "The model's file field (`file`; `logo`/`avatar` for web-chat; `compact_logo`/`full_logo` for organization)",
  example: "file",
});
const filename = nameText(255).openapi({
  description: "Name of the file to upload; its extension must be allowed",
  example: "cat.png",
});
const contentType = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .openapi({
    description:
      "Optional, stricter: the media type the upload must declare. When given, the POST policy holds a " +
      "Content-Type condition and `fields` carry it; absent, no Content-Type field is asked for and the stored " +
      "type comes from the filename",
    example: "image/png",
  });
const fileSize = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).openapi({
  description: "Size of the file in bytes (required, here or in the query); an empty file is refused",
  example: 12345,
});

export const PresignQuery = z.object({
  modelName: modelName.optional(),
  fieldName: fieldName.optional(),
  filename: filename.optional(),
  fileSize: fileSize.optional(),
  contentType: contentType.optional(),
});

export const PresignBody = z
  .object({
    modelName: modelName.optional(),
    fieldName: fieldName.optional(),
    filename: filename.optional(),
    fileSize: fileSize.optional(),
    contentType: contentType.optional(),
  })
  .openapi("PresignedUploadRequest");

export const PresignedUploadSchema = z
  .object({
    url: z
      .string()
      .openapi({ description: "Where to send the file", example: "https://api.example.com/api/v1/uploads/" }),
    fields: z.record(z.string(), z.string()).openapi({
      description:
        "POST: every form field to send before `file` (key, x-amz-algorithm, x-amz-credential, x-amz-date, " +
        "policy, x-amz-signature; Content-Type only when the request asked for it); PUT: only `key`",
      example: {
        key: "uploads/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d/attachment/5f0c.../cat.png",
        policy: "eyJleHBpcmF0aW9uIjoi...",
        "x-amz-signature": "3f1c...",
      },
    }),
    method: z
      .enum(["POST", "PUT"])
      .openapi({ description: "POST: multipart form with `file` last (204); PUT: the raw bytes", example: "POST" }),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .openapi({ description: "PUT only: headers to send with the bytes", example: { "Content-Type": "image/png" } }),
  })
  .openapi("PresignedUpload");

export const ObjectKeyParams = z.object({
  key: z.string().openapi({
    param: { name: "key", in: "path" },
    description: "The object key, slashes included",
    example: "uploads/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d/attachment/5f0c.../cat.png",
  }),
});
