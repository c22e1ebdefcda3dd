import { z } from "@hono/zod-openapi";
import { FILE_STATUSES } from "../../../db/schema";
import { IdName, IdRef, Timestamp, uuidParam } from "../../../lib/openapi";
import { PageQuery } from "../../../lib/pagination";
import { BUILT_IN_PARSER } from "../../../services/knowledge-files";
import { EXAMPLE_ID } from "../schema";

export const KnowledgeBaseParams = z.object({ knowledgeBaseId: uuidParam("knowledgeBaseId", "Knowledge base id") });
export const FileParams = KnowledgeBaseParams.extend({ fileId: uuidParam("fileId", "File id") });

const ParserSchema = z
  .object({
    id: z.string().openapi({ example: BUILT_IN_PARSER.id }),
    name: z.string().openapi({ example: BUILT_IN_PARSER.name }),
    provider: z.string().openapi({ example: BUILT_IN_PARSER.provider }),
    isTimestampSttProvider: z.boolean().openapi({ example: false }),
  })
  .openapi("Parser");

export const KnowledgeBaseFileSchema = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    filename: z.string().openapi({ example: "handbook.pdf" }),
    file: z.string().openapi({
      description: "Where the stored file can be downloaded (with an API key)",
      example: "https://api.example.com/api/v1/knowledge-bases/…/files/…/download/",
    }),
    fileType: z.string().openapi({ description: "txt, md, html, csv, json, pdf or docx", example: "pdf" }),
    knowledgeBase: IdName,
    size: z.number().int().openapi({ description: "Bytes", example: 48213 }),
    status: z
      .enum(FILE_STATUSES)
      .openapi({ description: "initial (queued), processing, done or failed", example: "done" }),
    parser: ParserSchema.nullable(),
    labels: z.array(IdName),
    rawUserDefineMetadata: z.record(z.string(), z.unknown()).openapi({ example: { department: "support" } }),
    speakerLabels: z
      .array(z.record(z.string(), z.unknown()))
      .openapi({ description: "Speaker labels of transcribed media (none for documents)", example: [] }),
    vectorStorageSize: z.number().int().openapi({ description: "Bytes of its vectors", example: 40960 }),
    chunksCount: z.number().int().openapi({ example: 40 }),
    waitingTime: z.number().nullable().openapi({
      description: "Seconds from upload (or reparse) to the start of processing; so far, while queued",
      example: 0.4,
    }),
    processingTime: z
      .number()
      .nullable()
      .openapi({ description: "Seconds of processing; so far, while processing", example: 1.2 }),
    processingTimeDetails: z.record(z.string(), z.unknown()).openapi({
      description: "Per-stage times in ms when done; `error` (the reason) and `stage` when failed",
      example: { parsingMs: 310, embeddingMs: 120, indexingMs: 80 },
    }),
    previewUrl: z
      .string()
      .nullable()
      .openapi({ description: "PDF preview of presentations; null for other files", example: null }),
    createdAt: Timestamp,
  })
  .openapi("KnowledgeBaseFile");

const parser = z
  .union([z.literal(BUILT_IN_PARSER.id), z.null()])
  .optional()
  .openapi({
    description: `Parser id; this service has one, the built-in parser (${BUILT_IN_PARSER.id})`,
    example: BUILT_IN_PARSER.id,
  });

export const FileReference = z.object({
  file: z.string().trim().min(1).max(2000).openapi({
    description: "An http(s) URL to fetch, or the key of an object uploaded to this service's storage",
    example: "https://example.com/handbook.pdf",
  }),
  filename: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .openapi({ description: "Name, with the extension that gives its type", example: "handbook.pdf" }),
  parser,
});
export const FileReferences = z
  .object({ files: z.array(FileReference).min(1).max(20).openapi({ description: "Files to add (1 to 20)" }) })
  .openapi("KnowledgeBaseFileReferences");

export const FileUploadForm = z
  .object({
    file: z.any().openapi({
      type: "array",
      items: { type: "string", format: "binary" },
      description: "One or more `file` parts (1 to 20)",
    }),
  })
  .openapi("KnowledgeBaseFileUpload");

export const FileListQuery = PageQuery.extend({
  query: z.string().max(200).optional().openapi({ description: "Filename contains", example: "handbook" }),
  status: z.enum(FILE_STATUSES).optional().openapi({ description: "Only files in this state", example: "done" }),
  labels: z
    .string()
    .max(2000)
    .optional()
    .openapi({ description: "Comma-separated label ids: files carrying any of them", example: EXAMPLE_ID }),
});

export const IdsBody = z.object({
  ids: z
    .array(z.uuid())
    .min(1)
    .max(1000)
    .openapi({ description: "Ids (ids of other knowledge bases are ignored)", example: [EXAMPLE_ID] }),
});

export const ReparseBody = z
  .array(z.object({ id: z.uuid().openapi({ description: "File id", example: EXAMPLE_ID }), parser }))
  .min(1)
  .max(1000)
  .openapi("KnowledgeBaseFileReparse");

export const FileMetadataBody = z
  .object({
    labels: z
      .array(IdRef)
      .max(100)
      .optional()
      .openapi({
        description: "Replaces the file's labels (labels of this knowledge base)",
        example: [{ id: EXAMPLE_ID }],
      }),
    rawUserDefineMetadata: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "Replaces the file's custom metadata", example: { department: "support" } }),
  })
  .openapi("KnowledgeBaseFileMetadata");
