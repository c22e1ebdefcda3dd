import { z } from "@hono/zod-openapi";
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../../../env";
import { faqLabels, knowledgeBaseFileLabels, knowledgeBaseLabels } from "../../../db/schema";
import { notFound } from "../../../lib/errors";
import { isUuid } from "../../../lib/ids";
import { IdName, Timestamp, uuidParam } from "../../../lib/openapi";
import { PageQuery } from "../../../lib/pagination";
import { ms } from "../../../lib/time";
import type { KnowledgeBaseRow } from "../../../services/knowledge-bases";
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
export type LabelRecord = z.infer<typeof LabelSchema>;

export const LabelWrite = z
  .object({ name: z.string().trim().min(1).max(200).openapi({ description: "Label name, unique within the knowledge base", example: "Billing" }) })
  .openapi("KnowledgeBaseLabelWrite");

export const LabelListQuery = PageQuery.extend({
  query: z.string().max(200).optional().openapi({ description: "Name contains (case-insensitive)", example: "bill" }),
});

/** Label columns plus how many files and FAQs carry it, read in the same query. */
export const labelColumns = {
  ...getTableColumns(knowledgeBaseLabels),
  filesCount: sql<number>`(select count(*) from ${knowledgeBaseFileLabels} where ${knowledgeBaseFileLabels.labelId} = ${knowledgeBaseLabels.id})`,
  faqsCount: sql<number>`(select count(*) from ${faqLabels} where ${faqLabels.labelId} = ${knowledgeBaseLabels.id})`,
};
type LabelRow = typeof knowledgeBaseLabels.$inferSelect & { filesCount: number; faqsCount: number };

export const labelRecord = (kb: KnowledgeBaseRow, row: LabelRow): LabelRecord => ({
  id: row.id,
  name: row.name,
  knowledgeBase: { id: kb.id, name: kb.name },
  filesCount: Number(row.filesCount),
  faqsCount: Number(row.faqsCount),
  createdAt: ms(row.createdAt)!,
  updatedAt: ms(row.updatedAt)!,
});

/** A label of this knowledge base; a label of another one (or a malformed id) is a 404. */
export async function getLabel(db: Db, kb: KnowledgeBaseRow, labelId: string): Promise<LabelRow> {
  const [row] = isUuid(labelId)
    ? await db
        .select(labelColumns)
        .from(knowledgeBaseLabels)
        .where(and(eq(knowledgeBaseLabels.id, labelId), eq(knowledgeBaseLabels.knowledgeBaseId, kb.id)))
    : [];
  if (!row) throw notFound("Label not found.");
  return row;
}
