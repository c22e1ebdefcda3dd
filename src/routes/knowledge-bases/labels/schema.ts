import { z } from "@hono/zod-openapi";
import { IdName, Timestamp, uuidParam } from "../../../lib/openapi";
import { PageQuery } from "../../../lib/pagination";
import { EXAMPLE_ID } from "../schema";

export { KNOWLEDGE_TAG } from "../schema";

const knowledgeBaseId = uuidParam("knowledgeBaseId", "Knowledge base id");
export const LabelsParams = z.object({ knowledgeBaseId });
export const LabelParams = z.object({ knowledgeBaseId, labelId: uuidParam("labelId", "Label id") });

export const LabelSchema = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    name: z.string().openapi({ description: "Unique within the knowledge base", example: "Billing" }),
    knowledgeBase: IdName.openapi({ description: "The knowledge base it belongs to" }),
    filesCount: z.number().int().openapi({ description: "Files carrying the label", example: 2 }),
    faqsCount: z.number().int().openapi({ description: "FAQs carrying the label", example: 5 }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("KnowledgeBaseLabel");

export const LabelWrite = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .openapi({ description: "Label name, unique within the knowledge base", example: "Billing" }),
  })
  .openapi("KnowledgeBaseLabelWrite");

export const LabelListQuery = PageQuery.extend({
  query: z.string().max(200).optional().openapi({ description: "Name contains (case-insensitive)", example: "bill" }),
});
