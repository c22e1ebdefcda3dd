import { z } from "@hono/zod-openapi";
import { IdName } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { QueryMetadataSchema } from "../contacts/query-metadata";
import { highlight } from "../../services/retrieval/terms";
import type { SearchHit } from "../../services/retrieval/search";
import { EXAMPLE_ID } from "./schema";

export const SEARCH_METHODS = ["hybrid", "keyword", "vector"] as const;

/** One search result (CONTRACT section 9). */
export const SearchResultSchema = z
  .object({
    type: z.enum(["text_node", "faq"]).openapi({ example: "text_node" }),
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
      .object({ id: z.string(), filename: z.string() })
      .nullable()
      .openapi({
        description: "The file of a text node; null for an FAQ",
        example: { id: EXAMPLE_ID, filename: "policy.pdf" },
      }),
    pageStart: z.number().int().nullable().openapi({ example: 2 }),
    pageEnd: z.number().int().nullable().openapi({ example: 2 }),
    faq: z
      .object({ id: z.string(), question: z.string(), answer: z.string() })
      .nullable()
      .openapi({ description: "The FAQ of an FAQ result", example: null }),
  })
  .openapi("SearchResult");

export const searchResult = (hit: SearchHit, query: string): z.infer<typeof SearchResultSchema> => ({
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

const query = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .openapi({ description: "What to search for", example: "How long do refunds take?" });
const searchMethod = z.enum(SEARCH_METHODS).optional().openapi({
  description:
    "hybrid (default: vector and keyword, fused and reranked per the knowledge base's settings), or one method alone (for diagnostics)",
  example: "hybrid",
});
const queryMetadata = QueryMetadataSchema.optional().openapi({
  description: "Restricts what may be found, as a contact's queryMetadata does (absent: no restriction)",
});

const enableRerank = z.boolean().optional().openapi({
  description:
    "Rerank hybrid results or not, for this search only (absent: the knowledge base's enableRerank); for comparing both",
  example: false,
});

export const KnowledgeBaseSearchBody = z
  .object({ query, searchMethod, enableRerank, queryMetadata })
  .openapi("KnowledgeBaseSearch");

/** The assistant search takes its parameters in the body or the query string (the body wins). */
export const ChatbotSearchBody = z
  .object({
    query: query.optional(),
    searchMethod,
    queryMetadata,
    largeLanguageModel: z.uuid().optional().openapi({
      description: "Model that writes HyDE's hypothetical answer (default: the assistant's)",
      example: "00000000-0000-7000-8000-000000000001",
    }),
    replyMode: z
      .string()
      .max(50)
      .optional()
      .openapi({ description: "Accepted for compatibility; it does not change the search", example: "normal" }),
  })
  .openapi("AssistantSearch");

export const ChatbotSearchQuery = PageQuery.extend({
  query: z
    .string()
    .max(2000)
    .optional()
    .openapi({ description: "What to search for, when the body does not say", example: "refund" }),
  largeLanguageModel: z
    .uuid()
    .optional()
    .openapi({ description: "As in the body", example: "00000000-0000-7000-8000-000000000001" }),
  replyMode: z.string().max(50).optional().openapi({ description: "Accepted for compatibility", example: "normal" }),
});
