import { z } from "@hono/zod-openapi";
import { BodyPageFields, PageQuery } from "../../lib/pagination";
import { QueryMetadataSchema } from "../../services/records/query-metadata";

export const SEARCH_METHODS = ["hybrid", "keyword", "vector"] as const;

const query = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .openapi({ description: "What to search for", example: "How long do refunds take?" });
const searchMethod = z
  .enum(SEARCH_METHODS)
  .optional()
  .openapi({
    description:
      "hybrid (default: vector and keyword, fused and reranked per the knowledge base's settings), or one " +
      "method alone (for diagnostics)",
    example: "hybrid",
  });
const queryMetadata = QueryMetadataSchema.optional().openapi({
  description: "Restricts what may be found, as a contact's queryMetadata does (absent: no restriction)",
});

const enableRerank = z
  .boolean()
  .optional()
  .openapi({
    description:
      "Rerank hybrid results or not, for this search only (absent: the knowledge base's enableRerank); for " +
      "comparing both",
    example: false,
  });

export const KnowledgeBaseSearchBody = z
  .object({ query, searchMethod, enableRerank, queryMetadata, ...BodyPageFields })
  .openapi("KnowledgeBaseSearch");

/** The assistant search takes its parameters in the body or the query string (the body wins). */
export const ChatbotSearchBody = z
  .object({
    query: query.optional(),
    searchMethod,
    queryMetadata,
    largeLanguageModel: z
      .uuid()
      .optional()
      .openapi({
        description:
          "Language model that writes HyDE's hypothetical answer (default: the assistant's); one the organization " +
          "may use, else 400",
        example: "00000000-0000-7000-8000-000000000001",
      }),
    replyMode: z
      .string()
      .max(50)
      .optional()
      .openapi({ description: "Accepted for compatibility; it does not change the search", example: "normal" }),
    ...BodyPageFields,
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
