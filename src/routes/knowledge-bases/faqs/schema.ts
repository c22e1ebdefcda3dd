import { z } from "@hono/zod-openapi";
import { and, asc, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../../env";
import { faqLabels, faqs, knowledgeBaseLabels } from "../../../db/schema";
import { notFound } from "../../../lib/errors";
import { isUuid } from "../../../lib/ids";
import { IdName, IdRef, Timestamp, uuidParam } from "../../../lib/openapi";
import { PageQuery, csv } from "../../../lib/pagination";
import { chunk } from "../../../lib/sql";
import { ms } from "../../../lib/time";
import type { KnowledgeBaseRow } from "../../../services/knowledge-bases";
import { EXAMPLE_ID } from "../schema";

export { KNOWLEDGE_TAG } from "../schema";

export type FaqRow = typeof faqs.$inferSelect;

const knowledgeBaseId = uuidParam("knowledgeBaseId", "Knowledge base id");
export const FaqsParams = z.object({ knowledgeBaseId });
export const FaqParams = z.object({ knowledgeBaseId, faqId: uuidParam("faqId", "FAQ id") });

const object = (description: string, example: Record<string, unknown>) => z.record(z.string(), z.unknown()).openapi({ description, example });

export const FaqSchema = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    question: z.string().openapi({ example: "How do I get a refund?" }),
    answer: z.string().openapi({ example: "Write to billing@example.com within 30 days of the purchase." }),
    answerMediaUrls: object("Media shown with the answer, stored as given", { images: ["https://example.com/refund.png"] }),
    hitsCount: z.number().int().openapi({ description: "Times the FAQ was retrieved", example: 0 }),
    embeddingTokensCount: z.number().int().openapi({ description: "Tokens embedded for the question and answer", example: 14 }),
    labels: z.array(IdName).openapi({ description: "Labels of the knowledge base carried by the FAQ" }),
    rawUserDefineMetadata: object("Custom metadata, keys kept as sent", { source: "help-centre" }),
    knowledgeBase: IdName.openapi({ description: "The knowledge base of the URL" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Faq");
export type FaqRecord = z.infer<typeof FaqSchema>;

const labels = z
  .array(IdRef)
  .max(100)
  .nullable()
  .optional()
  .openapi({ description: "Labels of this knowledge base (`[{id}]`); replaces the list, null clears it", example: [{ id: EXAMPLE_ID }] });
const rawUserDefineMetadata = z
  .record(z.string(), z.unknown())
  .nullable()
  .optional()
  .openapi({ description: "Custom metadata; replaces the stored object, null clears it", example: { source: "help-centre" } });

const fields = {
  question: z.string().trim().min(1).max(10_000).openapi({ description: "The question, 1 to 10,000 characters", example: "How do I get a refund?" }),
  answer: z
    .string()
    .min(1)
    .max(100_000)
    .openapi({ description: "The answer given when the question matches", example: "Write to billing@example.com within 30 days of the purchase." }),
  answerMediaUrls: z
    .record(z.string(), z.unknown())
    .nullable()
    .optional()
    .openapi({ description: "Media shown with the answer; null clears it", example: { images: ["https://example.com/refund.png"] } }),
  labels,
  rawUserDefineMetadata,
};

/** POST and PUT: question and answer required. */
export const FaqWrite = z.object(fields).openapi("FaqWrite");
export const FaqPatch = FaqWrite.partial().openapi("FaqPatch");
export type FaqInput = z.infer<typeof FaqPatch>;
export const FaqMetadataPatch = z.object({ labels, rawUserDefineMetadata }).openapi("FaqMetadataPatch");

export const FaqBatchDelete = z
  .object({ ids: z.array(z.uuid()).min(1).max(1000).openapi({ description: "FAQ ids; ids not in this knowledge base are ignored", example: [EXAMPLE_ID] }) })
  .openapi("FaqBatchDelete");

export const FaqListQuery = PageQuery.extend({
  query: z.string().max(200).optional().openapi({ description: "Question or answer contains (case-insensitive)", example: "refund" }),
  labels: csv("Comma-separated label ids: FAQs carrying any of them"),
});

/** Statements replacing an FAQ's labels; 40 links per insert keeps each under D1's 100 bound parameters. */
export function labelLinkStatements(db: Db, faqId: string, labelIds: string[] | undefined, replace: boolean): BatchItem<"sqlite">[] {
  if (labelIds === undefined) return [];
  const out: BatchItem<"sqlite">[] = replace ? [db.delete(faqLabels).where(eq(faqLabels.faqId, faqId))] : [];
  for (const part of chunk(labelIds, 40)) out.push(db.insert(faqLabels).values(part.map((labelId) => ({ faqId, labelId }))));
  return out;
}

/** An FAQ of this knowledge base; one of another knowledge base (or a malformed id) is a 404. */
export async function getFaq(db: Db, kb: KnowledgeBaseRow, faqId: string): Promise<FaqRow> {
  const [row] = isUuid(faqId) ? await db.select().from(faqs).where(and(eq(faqs.id, faqId), eq(faqs.knowledgeBaseId, kb.id))) : [];
  if (!row) throw notFound("FAQ not found.");
  return row;
}

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
