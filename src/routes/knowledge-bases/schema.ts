import { z } from "@hono/zod-openapi";
import { PageQuery } from "../../lib/pagination";
import { EXAMPLE_ID, LOCAL_EMBEDDING, LOCAL_RERANKER } from "../../services/records/knowledge-bases";

export { EXAMPLE_ID };

export const KNOWLEDGE_TAG = "Knowledge bases";

export const KnowledgeBaseListQuery = PageQuery.extend({
  embeddingModel: z
    .uuid()
    .optional()
    .openapi({ description: "Only knowledge bases using this embedding model", example: LOCAL_EMBEDDING }),
  rerankerModel: z
    .uuid()
    .optional()
    .openapi({ description: "Only knowledge bases using this reranker model", example: LOCAL_RERANKER }),
  query: z.string().max(200).optional().openapi({ description: "Name contains (case-insensitive)", example: "help" }),
});
