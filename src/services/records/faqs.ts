import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../env";
import { faqLabels, knowledgeBaseLabels } from "../../db/schema";
import { ms } from "../../lib/time";
import type { FaqRow } from "../faqs";
import type { KnowledgeBaseRow } from "../knowledge-bases";

type IdName = { id: string; name: string };

export interface FaqRecord {
  id: string;
  question: string;
  answer: string;
  answerMediaUrls: Record<string, unknown>;
  hitsCount: number;
  embeddingTokensCount: number;
  labels: IdName[];
  rawUserDefineMetadata: Record<string, unknown>;
  knowledgeBase: IdName;
  createdAt: string;
  updatedAt: string;
}

/** FAQ rows -> records, with their labels read in one query. */
export async function faqRecords(db: Db, kb: KnowledgeBaseRow, rows: FaqRow[]): Promise<FaqRecord[]> {
  const links = rows.length
    ? await db
        .select({ faqId: faqLabels.faqId, id: knowledgeBaseLabels.id, name: knowledgeBaseLabels.name })
        .from(faqLabels)
        .innerJoin(knowledgeBaseLabels, eq(knowledgeBaseLabels.id, faqLabels.labelId))
        .where(sql`${faqLabels.faqId} in (select value from json_each(${JSON.stringify(rows.map((r) => r.id))}))`)
        .orderBy(asc(knowledgeBaseLabels.name))
    : [];
  return rows.map((row) => ({
    id: row.id,
    question: row.question,
    answer: row.answer,
    answerMediaUrls: row.answerMediaUrls,
    hitsCount: row.hitsCount,
    embeddingTokensCount: row.embeddingTokensCount,
    labels: links.filter((l) => l.faqId === row.id).map(({ id, name }) => ({ id, name })),
    rawUserDefineMetadata: row.rawUserDefineMetadata,
    knowledgeBase: { id: kb.id, name: kb.name },
    createdAt: ms(row.createdAt)!,
    updatedAt: ms(row.updatedAt)!,
  }));
}

export const faqRecord = async (db: Db, kb: KnowledgeBaseRow, row: FaqRow) => (await faqRecords(db, kb, [row]))[0];
