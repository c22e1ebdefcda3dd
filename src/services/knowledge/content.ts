import { and, eq, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { faqs, knowledgeBaseFiles, knowledgeBases, textNodes } from "../../db/schema";
import { fieldError } from "../../lib/errors";
import { deletePrefix } from "../../lib/r2";
import { chunk } from "../../lib/sql";
import { sendAll } from "../../lib/queues";
import { ModelError } from "../llm/types";
import { modelById } from "../models";
import { embeddingModelFor } from "./embeddings";
import type { EmbeddingModel } from "./embeddings/types";
import { knowledgeBaseEmbeddingModel, refreshKnowledgeBaseEmbedding } from "./embeddings/knowledge-base";
import { vectorStoreFor } from "./vector-store";
import { indexedTerms } from "./retrieval/terms";
import { indexKeywordTexts, removeKeywordTexts } from "./retrieval/knowledge-index";
import { countWords } from "../llm/text";
import type { KnowledgeBaseRow } from "./knowledge-bases";

/** Jobs of the knowledge-ingestion queue (src/queues/knowledge-ingestion.ts). */
export type IngestionJob =
  | { kind: "file"; fileId: string; generation: number }
  | { kind: "purge"; knowledgeBaseId: string; vectorIds: string[]; objectPrefix?: string }
  /** Fill the keyword index of a base that had content before the index existed (retrieval/knowledge-index.ts). */
  | { kind: "keywords"; knowledgeBaseId: string };

/** Vectors removed per purge job: keeps each queue message far below its 128 KB limit. */
const PURGE_BATCH = 1000;

export async function embedderOf(env: Bindings, db: Db, kb: Pick<KnowledgeBaseRow, "id" | "embeddingModelId">) {
  const row = await modelById(db, kb.embeddingModelId);
  if (!row) throw new ModelError("The knowledge base's embedding model no longer exists.", 400);
  // The built-in model is trained on each base's own text (src/services/knowledge/embeddings/knowledge-base.ts).
  return row.provider === "local" ? knowledgeBaseEmbeddingModel(env, kb.id) : embeddingModelFor(env, row);
}

/** What an FAQ is searched by: its question and its answer. */
export const faqText = (faq: { question: string; answer: string }) => `${faq.question}\n${faq.answer}`;

/** FAQs' texts with their vectors and the model that made them: embedded before the rows are written (`embedFaqs`). */
export interface EmbeddedFaqs {
  embedder: EmbeddingModel;
  texts: string[];
  vectors: number[][];
}

/**
 * Embeds FAQs about to be written, before anything is: a provider that fails then leaves no FAQ stored (a client's
 * retry would add a second one) and none half-indexed. Rejects with the model's error (ModelError).
 */
export async function embedFaqs(
  env: Bindings,
  db: Db,
  kb: KnowledgeBaseRow,
  faqsToWrite: { question: string; answer: string }[],
): Promise<EmbeddedFaqs> {
  const texts = faqsToWrite.map(faqText);
  const embedder = await embedderOf(env, db, kb);
  return { embedder, texts, vectors: texts.length ? await embedder.embed(texts, "document") : [] };
}

/**
 * Indexes FAQs just written with the vectors `embedFaqs` made for them (same order): their FTS rows in one batch, their
 * keyword entries and vectors. Answers the ids whose rows are still there: an FAQ deleted meanwhile (its delete may
 * have cleared the index before this wrote to it) has what was added removed again, so a deleted FAQ is never found.
 */
export async function indexFaqs(
  env: Bindings,
  db: Db,
  kb: KnowledgeBaseRow,
  rows: { id: string }[],
  { embedder, texts, vectors }: EmbeddedFaqs,
): Promise<Set<string>> {
  if (!rows.length) return new Set();
  const data = JSON.stringify(
    rows.map((r, i) => ({ id: r.id, terms: indexedTerms(texts[i], kb.id), words: countWords(texts[i]) })),
  );
  await env.DB.batch([
    env.DB.prepare(
      "delete from faqs_fts where rowid in (select f.rowid from faqs as f join json_each(?1) as j on f.id = " +
        "j.value ->> '$.id')",
    ).bind(data),
    env.DB.prepare(
      "insert into faqs_fts (rowid, terms) select f.rowid, j.value ->> '$.terms' from json_each(?1) as j join " +
        "faqs as f on f.id = j.value ->> '$.id'",
    ).bind(data),
    env.DB.prepare(
      "update faqs set embedding_tokens_count = (select j.value ->> '$.words' from json_each(?1) as j where " +
        "j.value ->> '$.id' = faqs.id) where id in (select value ->> '$.id' from json_each(?1))",
    ).bind(data),
  ]);
  await indexKeywordTexts(
    env,
    kb.id,
    rows.map((r, i) => ({ id: r.id, type: "faq" as const, sourceId: r.id, text: texts[i] })),
  );
  const records = rows.map((r, i) => ({ id: r.id, values: vectors[i], type: "faq" as const, sourceId: r.id }));
  await vectorStoreFor(env).upsert(kb.id, records);
  await refreshKnowledgeBaseEmbedding(
    env,
    db,
    embedder,
    records.map(({ values: _, ...r }, i) => ({ ...r, text: texts[i] })),
  );
  const ids = rows.map((r) => r.id);
  const live = new Set(
    (
      await db
        .select({ id: faqs.id })
        .from(faqs)
        .where(sql`${faqs.id} in (select value from json_each(${JSON.stringify(ids)}))`)
    ).map((r) => r.id),
  );
  const gone = ids.filter((id) => !live.has(id));
  if (gone.length)
    await Promise.all([vectorStoreFor(env).deleteByIds(kb.id, gone), removeKeywordTexts(env, kb.id, gone)]);
  return live;
}

/** Deletes FAQs of a knowledge base with their index rows and vectors. */
export async function deleteFaqs(env: Bindings, db: Db, knowledgeBaseId: string, ids: string[]) {
  if (!ids.length) return;
  await db
    .delete(faqs)
    .where(
      and(
        eq(faqs.knowledgeBaseId, knowledgeBaseId),
        sql`${faqs.id} in (select value from json_each(${JSON.stringify(ids)}))`,
      ),
    );
  await Promise.all([
    vectorStoreFor(env).deleteByIds(knowledgeBaseId, ids),
    removeKeywordTexts(env, knowledgeBaseId, ids),
  ]);
}

/**
 * 400 naming the ids (of `field`) that are not among `found`, the files of this knowledge base, before a batch does
 * anything. Ignored, an id of another knowledge base (a client mixing up two) was answered as if it had been done.
 */
export function refuseFilesNotOf(field: string, ids: readonly string[], found: readonly { id: string }[]): void {
  const known = new Set(found.map((f) => f.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw fieldError(field, `Not files of this knowledge base: ${unknown.slice(0, 5).join(", ")}.`);
}

/**
 * Deletes files of a knowledge base with their text nodes (FTS rows go by trigger), then their
 * vectors and stored bytes; an id that is not a file of this knowledge base is 400 and nothing is deleted. A queue
 * job still running for a deleted file finds no row and stops.
 */
export async function deleteFiles(env: Bindings, db: Db, knowledgeBaseId: string, fileIds: string[]) {
  const ofThisBase = and(
    eq(knowledgeBaseFiles.knowledgeBaseId, knowledgeBaseId),
    sql`${knowledgeBaseFiles.id} in (select value from json_each(${JSON.stringify(fileIds)}))`,
  );
  const files = await db
    .select({ id: knowledgeBaseFiles.id, objectKey: knowledgeBaseFiles.objectKey })
    .from(knowledgeBaseFiles)
    .where(ofThisBase);
  refuseFilesNotOf("ids", fileIds, files);
  if (!files.length) return;
  const nodes = await db
    .select({ id: textNodes.id })
    .from(textNodes)
    .where(sql`${textNodes.fileId} in (select value from json_each(${JSON.stringify(files.map((f) => f.id))}))`);
  await db.delete(knowledgeBaseFiles).where(ofThisBase);
  await Promise.all([
    ...chunk(
      nodes.map((n) => n.id),
      PURGE_BATCH,
    ).map((part) => vectorStoreFor(env).deleteByIds(knowledgeBaseId, part)),
    removeKeywordTexts(
      env,
      knowledgeBaseId,
      nodes.map((n) => n.id),
    ),
    ...chunk(
      files.map((f) => f.objectKey),
      PURGE_BATCH,
    ).map((keys) => env.FILES.delete(keys)),
  ]);
}

/**
 * Deletes a knowledge base: its rows go at once (cascades), its vectors and file bytes through purge
 * jobs on the ingestion queue, since a large base holds more than one request should remove. The jobs are queued
 * first: a queue that refuses them leaves the base whole (the delete can be tried again), never rows gone with their
 * vectors and bytes left behind; a job purges only a base whose row is gone (`purgeKnowledgeBase`).
 */
export async function deleteKnowledgeBase(env: Bindings, db: Db, knowledgeBaseId: string) {
  const [nodes, faqRows] = await Promise.all([
    db.select({ id: textNodes.id }).from(textNodes).where(eq(textNodes.knowledgeBaseId, knowledgeBaseId)),
    db.select({ id: faqs.id }).from(faqs).where(eq(faqs.knowledgeBaseId, knowledgeBaseId)),
  ]);
  const ids = [...nodes, ...faqRows].map((r) => r.id);
  const jobs: IngestionJob[] = chunk(ids, PURGE_BATCH).map((vectorIds) => ({
    kind: "purge",
    knowledgeBaseId,
    vectorIds,
  }));
  jobs.push({ kind: "purge", knowledgeBaseId, vectorIds: [], objectPrefix: objectPrefixOf(knowledgeBaseId) });
  await sendAll(
    env.INGESTION_QUEUE,
    jobs.map((body) => ({ body })),
  );
  await db.delete(knowledgeBases).where(eq(knowledgeBases.id, knowledgeBaseId));
}

/**
 * What a purge job removes: the vectors, index texts and stored bytes of a deleted knowledge base. Answers false,
 * removing nothing, while the base's row is still there (its delete not yet committed, or failed after the jobs
 * were queued).
 */
export async function purgeKnowledgeBase(env: Bindings, db: Db, job: Extract<IngestionJob, { kind: "purge" }>) {
  const [live] = await db
    .select({ id: knowledgeBases.id })
    .from(knowledgeBases)
    .where(eq(knowledgeBases.id, job.knowledgeBaseId));
  if (live) return false;
  if (job.vectorIds.length)
    await Promise.all([
      vectorStoreFor(env).deleteByIds(job.knowledgeBaseId, job.vectorIds),
      removeKeywordTexts(env, job.knowledgeBaseId, job.vectorIds),
    ]);
  if (job.objectPrefix) await deletePrefix(env.FILES, job.objectPrefix);
  return true;
}

/** Stored bytes of a knowledge base's files live under this prefix of the FILES bucket. */
export const objectPrefixOf = (knowledgeBaseId: string) => `knowledge-bases/${knowledgeBaseId}/`;
