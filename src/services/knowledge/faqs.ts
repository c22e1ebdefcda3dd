import type { z } from "@hono/zod-openapi";
import { and, eq, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Bindings, Db } from "../../env";
import { type PageWindow, newestFirstPage } from "../../db/paginate";
import { faqLabels, faqs, knowledgeBaseLabels, knowledgeBases } from "../../db/schema";
import { selectedRow } from "../../db/insert-select";
import { uuidv7 } from "../../lib/ids";
import { contains } from "../../lib/sql";
import { conflict, notFound } from "../../lib/errors";
import type { KnowledgeBaseRow } from "./knowledge-bases";
import { deleteFaqs, embedFaqs, indexFaqs } from "./content";
import { checkLabels } from "./files";
import { modelApiError } from "../llm/errors";
import { faqRecord, faqRecords, type FaqPatch, type FaqWrite } from "../records/faqs";
import { findById } from "../../db/find";
import { definedFields } from "../../lib/patch";

export type FaqRow = typeof faqs.$inferSelect;

/** An FAQ of this knowledge base; one of another knowledge base (or a malformed id) is a 404. */
export async function getFaq(db: Db, kb: KnowledgeBaseRow, faqId: string): Promise<FaqRow> {
  return findById(faqId, "FAQ not found.", () =>
    db
      .select()
      .from(faqs)
      .where(and(eq(faqs.id, faqId), eq(faqs.knowledgeBaseId, kb.id))),
  );
}

/**
 * Statements replacing an FAQ's labels. The links are inserted only while the FAQ (and each label) still exists: an
 * FAQ deleted (or a label removed) since it was read gets no link, rather than failing the batch on a foreign key.
 */
export function labelLinkStatements(
  db: Db,
  faqId: string,
  labelIds: string[] | undefined,
  replace: boolean,
): BatchItem<"sqlite">[] {
  if (labelIds === undefined) return [];
  const out: BatchItem<"sqlite">[] = replace ? [db.delete(faqLabels).where(eq(faqLabels.faqId, faqId))] : [];
  if (labelIds.length)
    out.push(
      db.insert(faqLabels).select(
        db
          .select({ faqId: faqs.id, labelId: knowledgeBaseLabels.id })
          .from(faqs)
          // One bound parameter however many labels (D1 binds at most 100).
          .innerJoin(
            knowledgeBaseLabels,
            sql`${knowledgeBaseLabels.id} in (select value from json_each(${JSON.stringify(labelIds)}))`,
          )
          .where(eq(faqs.id, faqId)),
      ),
    );
  return out;
}

/** A page of a knowledge base's FAQs, newest first; `query`: question or answer contains; `labels`: any of. */
export async function listFaqs(
  db: Db,
  kb: KnowledgeBaseRow,
  filters: { query?: string; labels?: string[] },
  window: PageWindow,
) {
  const where = and(
    eq(faqs.knowledgeBaseId, kb.id),
    filters.query ? or(contains(faqs.question, filters.query), contains(faqs.answer, filters.query)) : undefined,
    // One bound parameter however many labels are asked for (D1 binds at most 100). No label ids (`labels=,`, as
    // `labels=`) is no filter, as on the file list.
    filters.labels?.length
      ? sql`exists (select 1 from ${faqLabels} where ${faqLabels.faqId} = ${faqs.id}
          and ${faqLabels.labelId} in (select value from json_each(${JSON.stringify(filters.labels)})))`
      : undefined,
  );
  const page = await newestFirstPage(db, faqs, where, window);
  return { count: page.count, items: await faqRecords(db, kb, page.items) };
}

/**
 * What a PUT, PATCH or update-metadata body of an FAQ carries, once parsed (null clears a field;
 * fields left out keep their value).
 */
export type FaqInput = z.output<typeof FaqPatch>;
/** A new FAQ: the POST body once parsed (question and answer required). */
export type FaqCreateInput = z.output<typeof FaqWrite>;

/**
 * Creates an FAQ with its labels (labels of this knowledge base, else 400) and indexes it at once. It is embedded
 * first: a provider that fails (502) leaves no FAQ behind, nor one that indexing failed for after its row was written,
 * so a client's retry does not make a second one (nor does a half-made FAQ hold the base's embedding model).
 * The row is inserted only while the base's embedding model is still the one that embedded it: the base held nothing
 * while the model was changed, so the change's check could not count this FAQ, whose vector of the old model would
 * then be searched with the new one's. When it changed, the FAQ is embedded again by the new model once (a 409,
 * nothing stored, if it changed again meanwhile).
 */
export async function createFaq(env: Bindings, db: Db, kb: KnowledgeBaseRow, body: FaqCreateInput) {
  const labelIds = await checkLabels(db, kb.id, body.labels);
  const first = await storeFaq(env, db, kb, body, labelIds);
  if (first.stored) return first.stored;
  const [base] = await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kb.id));
  if (!base) throw notFound("Knowledge base not found.");
  const again = await storeFaq(env, db, base, body, labelIds);
  if (again.stored) return again.stored;
  throw await faqNotStored(db, kb.id);
}

/** Embeds, stores and indexes a new FAQ by `kb`'s embedding model; `stored` is null when that model is no longer the
 * base's (or the base is gone), and then nothing is stored. */
async function storeFaq(env: Bindings, db: Db, kb: KnowledgeBaseRow, body: FaqCreateInput, labelIds?: string[]) {
  const embedded = await embedFaqs(env, db, kb, [body]).catch((err) => {
    throw modelApiError(err);
  });
  const id = uuidv7();
  const now = Date.now();
  const values: FaqRow = {
    id,
    knowledgeBaseId: kb.id,
    question: body.question,
    answer: body.answer,
    answerMediaUrls: body.answerMediaUrls ?? {},
    hitsCount: 0,
    embeddingTokensCount: 0,
    rawUserDefineMetadata: body.rawUserDefineMetadata ?? {},
    createdAt: now,
    updatedAt: now,
  };
  const [[row]] = await db.batch([
    db
      .insert(faqs)
      .select(
        db
          .select(selectedRow(faqs, values))
          .from(knowledgeBases)
          .where(and(eq(knowledgeBases.id, kb.id), eq(knowledgeBases.embeddingModelId, kb.embeddingModelId))),
      )
      .returning(),
    // Joined to the FAQ: none is linked when it was not inserted.
    ...labelLinkStatements(db, id, labelIds, false),
  ]);
  if (!row) return { stored: null };
  await indexFaqs(env, db, kb, [row], embedded).catch(async (err) => {
    await deleteFaqs(env, db, kb.id, [id]);
    throw err;
  });
  // Indexing counted the embedded tokens on the row.
  return { stored: await faqRecord(db, kb, await getFaq(db, kb, id)) };
}

/** Why an FAQ's row was not inserted: its knowledge base is gone (404), or its embedding model changed (409). */
async function faqNotStored(db: Db, knowledgeBaseId: string) {
  const [base] = await db
    .select({ id: knowledgeBases.id })
    .from(knowledgeBases)
    .where(eq(knowledgeBases.id, knowledgeBaseId));
  return base
    ? conflict(
        "The knowledge base's embedding model changed while the FAQ was embedded; nothing was stored, send it again.",
      )
    : notFound("Knowledge base not found.");
}

/**
 * Writes the given fields of an FAQ and its labels in one batch (atomic), then re-indexes it when its searchable text
 * changed, embedded before anything is written (a provider's failure, 502, changes nothing). An FAQ deleted meanwhile
 * is a 404: nothing written, no labels linked, nothing left indexed. For PUT, PATCH and update-metadata.
 */
export async function updateFaq(env: Bindings, db: Db, kb: KnowledgeBaseRow, current: FaqRow, body: FaqInput) {
  const labelIds = await checkLabels(db, kb.id, body.labels);
  const values = definedFields({
    question: body.question,
    answer: body.answer,
    answerMediaUrls: body.answerMediaUrls === null ? {} : body.answerMediaUrls,
    rawUserDefineMetadata: body.rawUserDefineMetadata === null ? {} : body.rawUserDefineMetadata,
  });
  const text = { question: values.question ?? current.question, answer: values.answer ?? current.answer };
  const changed = text.question !== current.question || text.answer !== current.answer;
  const embedded = changed
    ? await embedFaqs(env, db, kb, [text]).catch((err) => {
        throw modelApiError(err);
      })
    : null;
  const [[row]] = await db.batch([
    db
      .update(faqs)
      .set({ ...values, updatedAt: Date.now() })
      .where(eq(faqs.id, current.id))
      .returning(),
    ...labelLinkStatements(db, current.id, labelIds, true),
  ]);
  if (!row) throw notFound("FAQ not found.");
  if (!embedded) return faqRecord(db, kb, row);
  if (!(await indexFaqs(env, db, kb, [row], embedded)).has(row.id)) throw notFound("FAQ not found.");
  return faqRecord(db, kb, await getFaq(db, kb, row.id));
}

/** Deletes the FAQs of this knowledge base among `ids`; other ids are ignored. */
export async function deleteFaqsOf(env: Bindings, db: Db, kb: KnowledgeBaseRow, ids: string[]) {
  // Only this knowledge base's ids reach the vector store, so another base's vectors are never touched.
  const own = await db
    .select({ id: faqs.id })
    .from(faqs)
    .where(
      and(eq(faqs.knowledgeBaseId, kb.id), sql`${faqs.id} in (select value from json_each(${JSON.stringify(ids)}))`),
    );
  await deleteFaqs(
    env,
    db,
    kb.id,
    own.map((f) => f.id),
  );
}
