import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { IdName, Timestamp } from "../../lib/openapi";
import { CursorQuery } from "../../lib/pagination";

export { KNOWLEDGE_TAG } from "../knowledge-bases/schema";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
const EXAMPLE_TEXT = "The warranty lasts three years from purchase. Batteries are covered for one year.";

/**
 * CONTRACT section 1: the spec gives two forms of text nodes; `/api` serves the older one and
 * `/api/v1` the newer. One router is mounted at both prefixes, so the path decides.
 */
export const isNewerForm = (c: Context) => new URL(c.req.url).pathname.startsWith("/api/v1/");

/** The older form (`/api`): only these fields. */
export const TextNodeLegacySchema = z
  .object({
    id: z.string().openapi({ description: "Text node id", example: EXAMPLE_ID }),
    charactersCount: z.number().int().openapi({ description: "Characters (code points) of the text", example: 81 }),
    hitsCount: z.number().int().openapi({ description: "Times the node was retrieved", example: 3 }),
    text: z.string().openapi({ description: "The chunk's text", example: EXAMPLE_TEXT }),
    updatedAt: Timestamp,
    filename: z.string().openapi({ description: "Name of the file the node comes from", example: "manual.pdf" }),
    chatbotFile: z
      .string()
      .openapi({ description: "Id of the knowledge base file the node comes from", example: EXAMPLE_ID }),
    pageNumber: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "First page of the passage (PDF and DOCX); null for formats without pages", example: 2 }),
  })
  .openapi("TextNodeLegacy");

/** The newer form (`/api/v1`): the older fields plus citation, display and metadata fields. */
export const TextNodeSchema = TextNodeLegacySchema.extend({
  knowledgeBaseFile: z
    .object({
      id: z.string().openapi({ description: "File id", example: EXAMPLE_ID }),
      filename: z.string().openapi({ description: "File name", example: "manual.pdf" }),
    })
    .openapi({ description: "The file the node comes from", example: { id: EXAMPLE_ID, filename: "manual.pdf" } }),
  pageStart: z
    .number()
    .int()
    .nullable()
    .openapi({ description: "First page of the passage; null for formats without pages", example: 2 }),
  pageEnd: z
    .number()
    .int()
    .nullable()
    .openapi({ description: "Last page of the passage; null for formats without pages", example: 2 }),
  startCharIdx: z
    .number()
    .int()
    .openapi({ description: "Offset of the passage's first character in the parsed document", example: 1200 }),
  endCharIdx: z.number().int().openapi({ description: "Offset just past the passage's last character", example: 1281 }),
  citationTitle: z.string().openapi({ description: "Title shown on a citation: the file name", example: "manual.pdf" }),
  citationDescription: z.string().nullable().openapi({
    description: "The passage's first sentence; null when the text has no sentence end",
    example: "The warranty lasts three years from purchase.",
  }),
  citationQuote: z.string().openapi({
    description: "The text, cut to about 200 characters (an ellipsis marks the cut)",
    example: EXAMPLE_TEXT,
  }),
  hasImage: z
    .boolean()
    .openapi({ description: "Whether the node is an image (never: images are not extracted)", example: false }),
  imageUrl: z.string().nullable().openapi({ description: "Image of the node; always null here", example: null }),
  displayText: z.string().openapi({ description: "Text to display: the text", example: EXAMPLE_TEXT }),
  displayTitle: z.string().openapi({ description: "Title to display: the file name", example: "manual.pdf" }),
  highlightedText: z.string().openapi({
    description: "The text, HTML-escaped, with the terms of `query` wrapped in <mark>",
    example: "The <mark>warranty</mark> lasts three years from purchase.",
  }),
  labels: z
    .array(IdName)
    .openapi({ description: "Labels of the node's file", example: [{ id: EXAMPLE_ID, name: "warranty" }] }),
  rawUserDefineMetadata: z
    .record(z.string(), z.unknown())
    .openapi({ description: "Custom metadata of the node's file", example: { department: "support" } }),
  metadataEnabledForSearch: z.record(z.string(), z.boolean()).openapi({
    description: "Metadata key -> whether it is used in search; empty, as no metadata key is searched",
    example: {},
  }),
}).openapi("TextNode");

/** Either form names the file; `chatbotFile` is the older name, deprecated in /api/v1. */
export const TextNodeListQuery = CursorQuery.extend({
  chatbotFile: z.uuid().optional().openapi({
    description: "Knowledge base file id (required under /api; deprecated under /api/v1)",
    example: EXAMPLE_ID,
  }),
  knowledgeBaseFile: z
    .uuid()
    .optional()
    .openapi({ description: "Knowledge base file id (/api/v1; `chatbotFile` is accepted too)", example: EXAMPLE_ID }),
  page: z.coerce
    .number()
    .int()
    .min(1)
    .default(1)
    .openapi({ description: "Page number, from 1 (/api/v1 only)", example: 1, type: "integer" }),
  query: z.string().max(200).optional().openapi({
    description: "Only nodes whose text contains this (case-insensitive); its terms are marked in `highlightedText`",
    example: "warranty",
  }),
});
