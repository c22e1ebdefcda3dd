import { z } from "@hono/zod-openapi";
import { IdRef, nameText, uuidParam } from "../../../lib/openapi";
import { PageQuery, csvIds } from "../../../lib/pagination";
import { BUILT_IN_PARSER, FILE_STATUSES } from "../../../services/knowledge/files";
import { EXAMPLE_ID } from "../schema";

export const KnowledgeBaseParams = z.object({ knowledgeBaseId: uuidParam("knowledgeBaseId", "Knowledge base id") });
export const FileParams = KnowledgeBaseParams.extend({ fileId: uuidParam("fileId", "File id") });

const parser = z
  .union([z.literal(BUILT_IN_PARSER.id), z.null()])
  .optional()
  .openapi({
    description: `Parser id; this service has one, the built-in parser (${BUILT_IN_PARSER.id})`,
    example: BUILT_IN_PARSER.id,
  });

export const FileReference = z.object({
  file: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .openapi({
      description:
        "An http(s) URL to fetch, or the key (or absolute URL) of an object in this service's storage: an upload " +
        "you made, a conversation's attachment (with `conversation.view`), or a file of a knowledge base you can see",
      example: "https://example.com/handbook.pdf",
    }),
  filename: nameText(255).openapi({
    description: "Name, with the extension that gives its type",
    example: "handbook.pdf",
  }),
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
  labels: csvIds("Comma-separated label ids: files carrying any of them"),
});

export const IdsBody = z.object({
  ids: z
    .array(z.uuid())
    .min(1)
    .max(1000)
    .openapi({ description: "Ids of files of this knowledge base", example: [EXAMPLE_ID] }),
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
