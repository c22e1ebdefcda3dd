import { z } from "@hono/zod-openapi";
import { uuidParam, NameField } from "../../../lib/openapi";
import { PageQuery } from "../../../lib/pagination";

export { KNOWLEDGE_TAG } from "../schema";

const knowledgeBaseId = uuidParam("knowledgeBaseId", "Knowledge base id");
export const LabelsParams = z.object({ knowledgeBaseId });
export const LabelParams = z.object({ knowledgeBaseId, labelId: uuidParam("labelId", "Label id") });

export const LabelWrite = z
  .object({
    name: NameField("Label name, unique within the knowledge base", "Billing"),
  })
  .openapi("KnowledgeBaseLabelWrite");

export const LabelListQuery = PageQuery.extend({
  query: z.string().max(200).optional().openapi({ description: "Name contains (case-insensitive)", example: "bill" }),
});
