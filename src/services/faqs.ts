import { and, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../env";
import { faqLabels, faqs } from "../db/schema";
import { notFound } from "../lib/errors";
import { isUuid } from "../lib/ids";
import { chunk } from "../lib/sql";
import type { KnowledgeBaseRow } from "./knowledge-bases";

export type FaqRow = typeof faqs.$inferSelect;

/** An FAQ of this knowledge base; one of another knowledge base (or a malformed id) is a 404. */
export async function getFaq(db: Db, kb: KnowledgeBaseRow, faqId: string): Promise<FaqRow> {
  const [row] = isUuid(faqId)
    ? await db
        .select()
        .from(faqs)
        .where(and(eq(faqs.id, faqId), eq(faqs.knowledgeBaseId, kb.id)))
    : [];
  if (!row) throw notFound("FAQ not found.");
  return row;
}

/** Statements replacing an FAQ's labels; 40 links per insert keeps each under D1's 100 bound parameters. */
export function labelLinkStatements(
  db: Db,
  faqId: string,
  labelIds: string[] | undefined,
  replace: boolean,
): BatchItem<"sqlite">[] {
  if (labelIds === undefined) return [];
  const out: BatchItem<"sqlite">[] = replace ? [db.delete(faqLabels).where(eq(faqLabels.faqId, faqId))] : [];
  for (const part of chunk(labelIds, 40))
    out.push(db.insert(faqLabels).values(part.map((labelId) => ({ faqId, labelId }))));
  return out;
}
