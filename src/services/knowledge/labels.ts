import { and, asc, count, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../../env";
import { faqLabels, knowledgeBaseFileLabels, knowledgeBaseLabels } from "../../db/schema";
import { type PageWindow, mapPage, paginate } from "../../db/paginate";
import { conflict, isUniqueViolation, notFound } from "../../lib/errors";
import { contains } from "../../lib/sql";
import type { KnowledgeBaseRow } from "./knowledge-bases";
import { labelRecord } from "../records/knowledge-labels";
import { findById } from "../../db/find";

/** Label columns plus how many files and FAQs carry it, read in the same query. */
export const labelColumns = {
  ...getTableColumns(knowledgeBaseLabels),
  filesCount: sql<number>`(select count(*) from ${knowledgeBaseFileLabels}
    where ${knowledgeBaseFileLabels.labelId} = ${knowledgeBaseLabels.id})`,
  faqsCount: sql<number>`(select count(*) from ${faqLabels} where ${faqLabels.labelId} = ${knowledgeBaseLabels.id})`,
};
export type LabelRow = typeof knowledgeBaseLabels.$inferSelect & { filesCount: number; faqsCount: number };

/** A label of this knowledge base; a label of another one (or a malformed id) is a 404. */
export async function getLabel(db: Db, kb: KnowledgeBaseRow, labelId: string): Promise<LabelRow> {
  return findById(labelId, "Label not found.", () =>
    db
      .select(labelColumns)
      .from(knowledgeBaseLabels)
      .where(and(eq(knowledgeBaseLabels.id, labelId), eq(knowledgeBaseLabels.knowledgeBaseId, kb.id))),
  );
}

/** A page of a knowledge base's labels, by name; `query`: name contains. */
export async function listLabels(db: Db, kb: KnowledgeBaseRow, query: string | undefined, window: PageWindow) {
  const where = and(
    eq(knowledgeBaseLabels.knowledgeBaseId, kb.id),
    query ? contains(knowledgeBaseLabels.name, query) : undefined,
  );
  const page = await paginate(
    window,
    db.select({ n: count() }).from(knowledgeBaseLabels).where(where),
    ({ limit, offset }) =>
      db
        .select(labelColumns)
        .from(knowledgeBaseLabels)
        .where(where)
        .orderBy(asc(knowledgeBaseLabels.name), asc(knowledgeBaseLabels.id))
        .limit(limit)
        .offset(offset),
  );
  return mapPage(page, (row) => labelRecord(kb, row));
}

const duplicateName = (err: unknown) => {
  throw isUniqueViolation(err) ? conflict("A label with this name already exists in the knowledge base.") : err;
};

/** A new label (409 when the knowledge base has one of this name). */
export async function createLabel(db: Db, kb: KnowledgeBaseRow, name: string) {
  const [row] = await db
    .insert(knowledgeBaseLabels)
    .values({ knowledgeBaseId: kb.id, name })
    .returning()
    .catch(duplicateName);
  return labelRecord(kb, { ...row, filesCount: 0, faqsCount: 0 });
}

/**
 * Renames a label (409 when the knowledge base has another of this name). A label deleted since it was read is a 404:
 * its UPDATE matches no row, so nothing is written.
 */
export async function renameLabel(db: Db, kb: KnowledgeBaseRow, current: LabelRow, name: string) {
  const [row] = await db
    .update(knowledgeBaseLabels)
    .set({ name, updatedAt: Date.now() })
    .where(eq(knowledgeBaseLabels.id, current.id))
    .returning()
    .catch(duplicateName);
  if (!row) throw notFound("Label not found.");
  return labelRecord(kb, { ...row, filesCount: current.filesCount, faqsCount: current.faqsCount });
}

/** Deletes a label; its links to files and FAQs go by the foreign keys' cascade. */
export async function deleteLabel(db: Db, label: LabelRow) {
  await db.delete(knowledgeBaseLabels).where(eq(knowledgeBaseLabels.id, label.id));
}
