import { z } from "@hono/zod-openapi";
import { SUPPORTED_FILE_TYPES } from "../parsing";

export const SupportedFileTypeSchema = z
  .object({
    fileType: z
      .string()
      .openapi({ description: "Canonical type name, as reported on a knowledge-base file", example: "pdf" }),
    extensions: z.array(z.string()).openapi({
      description: "File name extensions read as this type, with the dot; the canonical one first",
      example: [".pdf"],
    }),
    contentTypes: z.array(z.string()).openapi({
      description: "Media types read as this type when the extension says nothing",
      example: ["application/pdf"],
    }),
    maxSize: z
      .number()
      .int()
      .openapi({ description: "Largest accepted file, in bytes", example: 20 * 1024 * 1024 }),
    description: z.string().openapi({
      description: "What is read from such a file",
      example: "PDF document (text layer; scanned pages without text are not read)",
    }),
  })
  .openapi("SupportedFileType");

export const SupportedFileTypesSchema = z
  .object({
    results: z.array(SupportedFileTypeSchema).openapi({ description: "Every file type a knowledge base can ingest" }),
  })
  .openapi("SupportedFileTypes");

export type SupportedFileTypeRecord = z.infer<typeof SupportedFileTypeSchema>;

/** Every file type a knowledge base can ingest, extensions with their dot. */
export const supportedFileTypeRecords = (): SupportedFileTypeRecord[] =>
  SUPPORTED_FILE_TYPES.map((t) => ({
    fileType: t.fileType,
    extensions: t.extensions.map((e) => `.${e}`),
    contentTypes: [...t.contentTypes],
    maxSize: t.maxSize,
    description: t.description,
  }));
