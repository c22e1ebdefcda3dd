import { z } from "@hono/zod-openapi";
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../env";
import { faqLabels, knowledgeBaseLabels } from "../../db/schema";
import { IdName, IdRef, manyLines, oneLine, Timestamps } from "../../lib/openapi";
import { timestampsOf } from "../../lib/time";
import type { FaqRow } from "../knowledge/faqs";
import type { KnowledgeBaseRow } from "../knowledge/knowledge-bases";
import { EXAMPLE_ID } from "./knowledge-bases";

const object = (description: string, example: Record<string, unknown>) =>
  z.record(z.string(), z.unknown()).openapi({ description, example });

export const FaqSchema = z
  .object({
    id: z.string().openapi({ description: "The FAQ's id", example: EXAMPLE_ID }),
    question: z.string().openapi({ description: "The question, as written", example: "How do I get a refund?" }),
    answer: z.string().openapi({
      description: "The answer given to it, as written",
      example: "Write to billing@example.com within 30 days of the purchase.",
    }),
    answerMediaUrls: object("Media shown with the answer, stored as given", {
      images: ["https://example.com/refund.png"],
    }),
    hitsCount: z.number().int().openapi({ description: "Times the FAQ was retrieved", example: 0 }),
    embeddingTokensCount: z
      .number()
      .int()
      .openapi({ description: "Tokens embedded for the question and answer", example: 14 }),
    labels: z.array(IdName).openapi({ description: "Labels of the knowledge base carried by the FAQ" }),
    rawUserDefineMetadata: object("Custom metadata, keys kept as sent", { source: "help-centre" }),
    knowledgeBase: IdName.openapi({ description: "The knowledge base of the URL" }),
    ...Timestamps,
  })
  .openapi("Faq");

export type FaqRecord = z.infer<typeof FaqSchema>;

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").
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

const writeFields = {
  // A question is one line wherever it is listed: a pasted cell's tabs and line breaks become spaces.
  question: oneLine(
    z
      .string()
      .overwrite((q) => q.replace(/[\t\r\n]+/g, " "))
      .trim()
      .min(1)
      .max(10_000),
  ).openapi({
    description: "The question, 1 to 10,000 characters; tabs and line breaks become spaces",
    example: "How do I get a refund?",
  }),
  answer: manyLines(z.string().min(1).max(100_000)).openapi({
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
export const FaqWrite = z.object(writeFields).openapi("FaqWrite");
/** PUT and PATCH: any subset; fields left out keep their value (real clients PUT only `answer`). */
export const FaqPatch = FaqWrite.partial().openapi("FaqPatch");
export const FaqMetadataPatch = z.object({ labels, rawUserDefineMetadata }).openapi("FaqMetadataPatch");

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
    ...timestampsOf(row),
  }));
}

export const faqRecord = async (db: Db, kb: KnowledgeBaseRow, row: FaqRow) => (await faqRecords(db, kb, [row]))[0];
