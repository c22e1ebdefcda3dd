import { z } from "@hono/zod-openapi";
import { FILE_STATUSES } from "../../db/schema";
import { IdName, Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { FileRow } from "../knowledge/files";
import { BUILT_IN_PARSER } from "../parsing";
import type { IdName as IdNameRef } from "../view-parts";
import { EXAMPLE_ID } from "./knowledge-bases";

const ParserSchema = z
  .object({
    id: z.string().openapi({ description: "The parser's fixed id", example: BUILT_IN_PARSER.id }),
    name: z.string().openapi({ description: "The parser's name", example: BUILT_IN_PARSER.name }),
    provider: z
      .string()
      .openapi({ description: "Who reads the files: `local`, the platform itself", example: BUILT_IN_PARSER.provider }),
    isTimestampSttProvider: z.boolean().openapi({
      description: "Whether it transcribes media with timestamps: false, as the built-in parser reads documents only",
      example: false,
    }),
  })
  .openapi("Parser", { description: "The parser that reads the file's text: the platform's built-in one" });

export const KnowledgeBaseFileSchema = z
  .object({
    id: z.string().openapi({ description: "The file's id", example: EXAMPLE_ID }),
    filename: z.string().openapi({ description: "The file's name, as uploaded", example: "handbook.pdf" }),
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
    labels: z.array(IdName).openapi({ description: "The file's labels (labels of its knowledge base)" }),
    rawUserDefineMetadata: z.record(z.string(), z.unknown()).openapi({
      description: "Your custom metadata of the file, as last written",
      example: { department: "support" },
    }),
    speakerLabels: z
      .array(z.record(z.string(), z.unknown()))
      .openapi({ description: "Speaker labels of transcribed media (none for documents)", example: [] }),
    vectorStorageSize: z.number().int().openapi({ description: "Bytes of its vectors", example: 40960 }),
    chunksCount: z
      .number()
      .int()
      .openapi({ description: "Text nodes its text was split into and indexed", example: 40 }),
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

export type KnowledgeBaseFileRecord = z.infer<typeof KnowledgeBaseFileSchema>;

const seconds = (from: number | null, to: number | null) =>
  from === null ? null : Math.max(0, ((to ?? Date.now()) - from) / 1000);

/** `origin` is the service's own (`https://host`), for the absolute download URL. */
export function fileRecord(
  origin: string,
  row: FileRow,
  knowledgeBase: IdNameRef,
  labels: IdNameRef[],
): KnowledgeBaseFileRecord {
  return {
    id: row.id,
    filename: row.filename,
    file: `${origin}/api/v1/knowledge-bases/${row.knowledgeBaseId}/files/${row.id}/download/`,
    fileType: row.fileType,
    knowledgeBase,
    size: row.size,
    status: row.status,
    parser: BUILT_IN_PARSER,
    labels,
    rawUserDefineMetadata: row.rawUserDefineMetadata,
    speakerLabels: [],
    vectorStorageSize: row.vectorStorageSize,
    chunksCount: row.chunksCount,
    waitingTime: seconds(row.queuedAt, row.startedAt),
    processingTime: seconds(row.startedAt, row.finishedAt),
    processingTimeDetails: row.processingTimeDetails,
    previewUrl: null,
    createdAt: ms(row.createdAt)!,
  };
}
