import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { SUPPORTED_FILE_TYPES } from "../../services/parsing";
import { KNOWLEDGE_TAG } from "../knowledge-bases/schema";

const SupportedFileTypeSchema = z
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

const SupportedFileTypesSchema = z
  .object({
    results: z.array(SupportedFileTypeSchema).openapi({ description: "Every file type a knowledge base can ingest" }),
  })
  .openapi("SupportedFileTypes");

const route = createRoute({
  method: "get",
  path: "/parsers/supported-file-types/",
  tags: [KNOWLEDGE_TAG],
  summary: "The file types a knowledge base can ingest, with their size limits",
  description: "The same for every organization; a file is typed by its extension, else by its content type.",
  responses: { 200: json(SupportedFileTypesSchema, "Supported file types"), ...errorResponses() },
});

export const registerListSupportedFileTypes = (r: Router) =>
  r.openapi(route, (c) =>
    c.json(
      {
        results: SUPPORTED_FILE_TYPES.map((t) => ({
          fileType: t.fileType,
          extensions: t.extensions.map((e) => `.${e}`),
          contentTypes: [...t.contentTypes],
          maxSize: t.maxSize,
          description: t.description,
        })),
      },
      200,
    ),
  );
