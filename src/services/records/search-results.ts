import { z } from "@hono/zod-openapi";
import { IdName } from "../../lib/openapi";
import type { SearchHit } from "../knowledge/retrieval/search";
import { highlight } from "../knowledge/retrieval/terms";
import { EXAMPLE_ID } from "./knowledge-bases";

/** One search result (CONTRACT section 9). */
export const SearchResultSchema = z
  .object({
    type: z
      .enum(["text_node", "faq"])
      .openapi({ description: "text_node: a passage of a file; faq: a question and answer", example: "text_node" }),
    id: z.string().openapi({ description: "The text node's or FAQ's id", example: EXAMPLE_ID }),
    score: z.number().openapi({ description: "Final score, 0..1 (after fusion and reranking)", example: 0.82 }),
    displayScore: z.number().int().openapi({ description: "The score as a percentage", example: 82 }),
    text: z.string().openapi({
      description: "The passage, widened by the sentence window; an FAQ's question and answer",
      example: "Refunds are paid within 14 days.",
    }),
    highlightedText: z.string().openapi({
      description: "`text`, HTML-escaped, with the query's terms in <mark>",
      example: "<mark>Refunds</mark> are paid within 14 days.",
    }),
    knowledgeBase: IdName,
    knowledgeBaseFile: z
      .object({
        id: z.string().openapi({ description: "The file's id" }),
        filename: z.string().openapi({ description: "The file's name" }),
      })
      .nullable()
      .openapi({
        description: "The file of a text node; null for an FAQ",
        example: { id: EXAMPLE_ID, filename: "policy.pdf" },
      }),
    pageStart: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "First page of the passage, when the file has pages; else null", example: 2 }),
    pageEnd: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Last page of the passage, when the file has pages; else null", example: 2 }),
    faq: z
      .object({
        id: z.string().openapi({ description: "The FAQ's id" }),
        question: z.string().openapi({ description: "The FAQ's question" }),
        answer: z.string().openapi({ description: "The FAQ's answer" }),
      })
      .nullable()
      .openapi({ description: "The FAQ of an FAQ result", example: null }),
  })
  .openapi("SearchResult");

export type SearchResultRecord = z.infer<typeof SearchResultSchema>;

export const searchResult = (hit: SearchHit, query: string): SearchResultRecord => ({
  type: hit.type,
  id: hit.id,
  score: Math.round(hit.score * 10_000) / 10_000,
  displayScore: Math.round(hit.score * 100),
  text: hit.text,
  highlightedText: highlight(hit.text, query),
  knowledgeBase: hit.knowledgeBase,
  knowledgeBaseFile: hit.file ? { id: hit.file.id, filename: hit.file.filename } : null,
  pageStart: hit.pageStart,
  pageEnd: hit.pageEnd,
  faq: hit.faq,
});
