import { z } from "@hono/zod-openapi";
import { uuidParam } from "../../../lib/openapi";
import { PageQuery, csvIds } from "../../../lib/pagination";
import { EXAMPLE_ID } from "../schema";

export { KNOWLEDGE_TAG } from "../schema";

const knowledgeBaseId = uuidParam("knowledgeBaseId", "Knowledge base id");
export const FaqsParams = z.object({ knowledgeBaseId });
export const FaqParams = z.object({ knowledgeBaseId, faqId: uuidParam("faqId", "FAQ id") });

export const FaqBatchDelete = z
  .object({
    ids: z
      .array(z.uuid())
      .min(1)
      .max(1000)
      .openapi({ description: "FAQ ids; ids not in this knowledge base are ignored", example: [EXAMPLE_ID] }),
  })
  .openapi("FaqBatchDelete");

export const FaqListQuery = PageQuery.extend({
  query: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Question or answer contains (case-insensitive)", example: "refund" }),
  labels: csvIds("Comma-separated label ids: FAQs carrying any of them"),
});
