import { z } from "@hono/zod-openapi";
import { IdRef, uuidParam } from "../../../lib/openapi";
import { PageQuery, csv } from "../../../lib/pagination";
import { EXAMPLE_ID } from "../schema";

export { KNOWLEDGE_TAG } from "../schema";

const knowledgeBaseId = uuidParam("knowledgeBaseId", "Knowledge base id");
export const FaqsParams = z.object({ knowledgeBaseId });
export const FaqParams = z.object({ knowledgeBaseId, faqId: uuidParam("faqId", "FAQ id") });

const labels = z
  .array(IdRef)
  .max(100)
  .nullable()
  .optional()
  .openapi({
    description: "Labels of this knowledge base (`[{id}]`); replaces the list, null clears it",
    example: [{ id: EXAMPLE_ID }],
  });
const rawUserDefineMetadata = z
  .record(z.string(), z.unknown())
  .nullable()
  .optional()
  .openapi({
    description: "Custom metadata; replaces the stored object, null clears it",
    example: { source: "help-centre" },
  });

const fields = {
  question: z
    .string()
    .trim()
    .min(1)
    .max(10_000)
    .openapi({ description: "The question, 1 to 10,000 characters", example: "How do I get a refund?" }),
  answer: z.string().min(1).max(100_000).openapi({
    description: "The answer given when the question matches",
    example: "Write to billing@example.com within 30 days of the purchase.",
  }),
  answerMediaUrls: z
    .record(z.string(), z.unknown())
    .nullable()
    .optional()
    .openapi({
      description: "Media shown with the answer; null clears it",
      example: { images: ["https://example.com/refund.png"] },
    }),
  labels,
  rawUserDefineMetadata,
};

/** POST: question and answer required. */
export const FaqWrite = z.object(fields).openapi("FaqWrite");
/** PUT and PATCH: any subset; fields left out keep their value (real clients PUT only `answer`). */
export const FaqPatch = FaqWrite.partial().openapi("FaqPatch");
export const FaqMetadataPatch = z.object({ labels, rawUserDefineMetadata }).openapi("FaqMetadataPatch");

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
  labels: csv("Comma-separated label ids: FAQs carrying any of them"),
});
