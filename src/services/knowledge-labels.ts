import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../env";
import { faqLabels, knowledgeBaseFileLabels, knowledgeBaseLabels } from "../db/schema";
import { notFound } from "../lib/errors";
import { isUuid } from "../lib/ids";
import type { KnowledgeBaseRow } from "./knowledge-bases";

/** Label columns plus how many files and FAQs carry it, read in the same query. */
export const labelColumns = {
  ...getTableColumns(knowledgeBaseLabels),
  filesCount: sql<number>`(select count(*) from ${knowledgeBaseFileLabels} where ${knowledgeBaseFileLabels.labelId} = ${knowledgeBaseLabels.id})`,
  faqsCount: sql<number>`(select count(*) from ${faqLabels} where ${faqLabels.labelId} = ${knowledgeBaseLabels.id})`,
};
export type LabelRow = typeof knowledgeBaseLabels.$inferSelect & { filesCount: number; faqsCount: number };

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
