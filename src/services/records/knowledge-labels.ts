import { z } from "@hono/zod-openapi";
import { IdName, Timestamps } from "../../lib/openapi";
import { timestampsOf } from "../../lib/time";
import type { KnowledgeBaseRow } from "../knowledge/knowledge-bases";
import type { LabelRow } from "../knowledge/labels";
import { EXAMPLE_ID } from "./knowledge-bases";

export const LabelSchema = z
  .object({
    id: z.string().openapi({ description: "The label's id", example: EXAMPLE_ID }),
    name: z.string().openapi({ description: "Unique within the knowledge base", example: "Billing" }),
    knowledgeBase: IdName.openapi({ description: "The knowledge base it belongs to" }),
    filesCount: z.number().int().openapi({ description: "Files carrying the label", example: 2 }),
    faqsCount: z.number().int().openapi({ description: "FAQs carrying the label", example: 5 }),
    ...Timestamps,
  })
  .openapi("KnowledgeBaseLabel");

export type LabelRecord = z.infer<typeof LabelSchema>;

export const labelRecord = (kb: KnowledgeBaseRow, row: LabelRow): LabelRecord => ({
  id: row.id,
  name: row.name,
  knowledgeBase: { id: kb.id, name: kb.name },
  filesCount: Number(row.filesCount),
  faqsCount: Number(row.faqsCount),
  ...timestampsOf(row),
});
