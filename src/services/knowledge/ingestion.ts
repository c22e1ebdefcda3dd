import { and, eq, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { knowledgeBaseFiles, knowledgeBases, textNodes } from "../../db/schema";
import { uuidv7 } from "../../lib/ids";
import { chunk } from "../../lib/sql";
import { parseDocument, ParseError, UnsupportedFileType } from "../parsing";
import { chunkDocument } from "./chunking";
import { embedderOf } from "./content";
import { refreshKnowledgeBaseEmbedding } from "./embeddings/knowledge-base";
import { vectorStoreFor } from "./vector-store";
import { indexedTerms } from "./retrieval/terms";
import { indexKeywordTexts, removeKeywordTexts } from "./retrieval/knowledge-index";
import { VECTOR_BYTES_PER_DIMENSION } from "./knowledge-bases";
import { ModelError } from "../llm/types";
import { injectedFaultAfter, InjectedIngestionFault } from "./ingestion-fault";
import { logError } from "../../lib/log";

type FileRow = typeof knowledgeBaseFiles.$inferSelect;

/** Texts embedded per call: large enough to amortise a remote round trip, small enough for its limits. */
const EMBED_BATCH = 64;
/** Rows per INSERT ... SELECT FROM json_each: keeps each bound JSON parameter well under D1's 2 MB. */
const ROWS_PER_STATEMENT = 400;

/** A failure that retrying cannot fix: the file is marked failed with this reason. */
export class PermanentIngestionError extends Error {}

/**
 * Parses, chunks, embeds and indexes one file (a queue job). Idempotent: a job for an older
 * generation, a deleted file, or a file already done or failed in this generation does nothing;
 * a repeated run, after one that died part-way, replaces the file's chunks in D1, the keyword index
 * and the vector store, so chunks are never duplicated, nor are they when two deliveries of one job
 * run at the same time (test/queues/ingestion-faults.test.ts).
 * Throws for failures worth a retry (the queue retries); marks the file failed otherwise.
 */
export async function ingestFile(
  env: Bindings,
  db: Db,
  fileId: string,
  generation: number,
  delivery: Delivery,
): Promise<void> {
  const [file] = await db.select().from(knowledgeBaseFiles).where(eq(knowledgeBaseFiles.id, fileId));
  if (!file || file.generation !== generation || file.status === "done" || file.status === "failed") return;
  const startedAt = file.startedAt ?? Date.now();
  await db.update(knowledgeBaseFiles).set({ status: "processing", startedAt }).where(current(file));
  try {
    await indexFile(env, db, file, startedAt, delivery.attempt);
  } catch (err) {
    const permanent =
      err instanceof PermanentIngestionError ||
      err instanceof ParseError ||
      err instanceof UnsupportedFileType ||
      (err instanceof ModelError && err.status === 400);
    if (!permanent && !delivery.isLast) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    // A failed file holds no chunks: whatever a run that died part-way wrote goes, indexes first (see
    // indexFile). Should the indexes be unreachable too, D1 keeps listing the chunks, so that a reparse
    // still finds and removes them.
    const dropped = await dropFromIndexes(env, file, await chunkIdsOf(db, file.id)).then(
      () => true,
      (notDropped) => {
        logError("failed file's chunks not dropped from the indexes; kept listed for a reparse", {
          fileId: file.id,
          error: String(notDropped),
        });
        return false;
      },
    );
    const failed = db
      .update(knowledgeBaseFiles)
      .set({
        status: "failed",
        finishedAt: Date.now(),
        chunksCount: 0,
        vectorStorageSize: 0,
        processingTimeDetails: { error: reason, stage: (err as { stage?: string }).stage ?? "processing" },
      })
      .where(current(file));
    if (dropped)
      await db.batch([
        db.delete(textNodes).where(and(eq(textNodes.fileId, file.id), isCurrentGeneration(file))),
        failed,
      ]);
    else await failed;
  }
}

/** Which delivery of the queue message this is (1, 2, ...), and whether no other will follow. */
export interface Delivery {
  attempt: number;
  isLast: boolean;
}

/** The file row as this job knows it: a reparse (new generation) or delete makes writes miss. */
const current = (file: FileRow) =>
  and(eq(knowledgeBaseFiles.id, file.id), eq(knowledgeBaseFiles.generation, file.generation));
const isCurrentGeneration = (file: FileRow) =>
  sql`exists (select 1 from knowledge_base_files where id = ${file.id} and generation = ${file.generation})`;

const chunkIdsOf = async (db: Db, fileId: string) =>
  (await db.select({ id: textNodes.id }).from(textNodes).where(eq(textNodes.fileId, fileId))).map((n) => n.id);

/** Removes chunks from the keyword index and the vector store (both by id: removing twice is harmless). */
async function dropFromIndexes(env: Bindings, file: FileRow, ids: string[]) {
  if (ids.length)
    await Promise.all([
      vectorStoreFor(env).deleteByIds(file.knowledgeBaseId, ids),
      removeKeywordTexts(env, file.knowledgeBaseId, ids),
    ]);
}

const staged = <T>(stage: string, run: () => Promise<T>) =>
  run().catch((err) => {
    if (err && typeof err === "object") (err as { stage?: string }).stage = stage;
    throw err;
  });

async function indexFile(env: Bindings, db: Db, file: FileRow, startedAt: number, attempt: number) {
  const [kb] = await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, file.knowledgeBaseId));
  if (!kb) return;
  if (kb.vectorDatabaseType) {
    throw new PermanentIngestionError(
      `The external vector database type "${kb.vectorDatabaseType}" has no adapter in this deployment yet; ` +
        `use the platform's own store.`,
    );
  }
  const t0 = Date.now();
  const object = await env.FILES.get(file.objectKey);
  if (!object) throw new PermanentIngestionError("The uploaded file is no longer in storage; upload it again.");
  const bytes = new Uint8Array(await object.arrayBuffer());
  const doc = await staged("parsing", () => parseDocument(bytes, file.filename, object.httpMetadata?.contentType));
  const chunks = chunkDocument(doc);
  const t1 = Date.now();
  const embedder = await embedderOf(env, db, kb);
  const vectors: number[][] = [];
  for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
    vectors.push(
      ...(await staged("embedding", () =>
        embedder.embed(
          chunks.slice(i, i + EMBED_BATCH).map((c) => c.text),
          "document",
        ),
      )),
    );
  }
  const t2 = Date.now();
  // The indexes only ever hold chunks that D1 lists for the file: old ones leave the indexes before
  // D1 lets go of them, new ones enter after D1 has them. A run that dies anywhere (or a crashed
  // worker) leaves the next run every id it must remove, so a retry ends with exactly this run's chunks.
  const before = await chunkIdsOf(db, file.id);
  await dropFromIndexes(env, file, before);
  const now = Date.now();
  const nodes = chunks.map((c, position) => ({ id: uuidv7(), position, ...c }));
  const rows = nodes.map((n) => ({
    id: n.id,
    kb: file.knowledgeBaseId,
    file: file.id,
    position: n.position,
    text: n.text,
    pageStart: n.pageStart,
    pageEnd: n.pageEnd,
    start: n.startCharIdx,
    end: n.endCharIdx,
    terms: indexedTerms(n.text, file.knowledgeBaseId),
  }));
  // One atomic batch: the old nodes (and by trigger their FTS rows) go, the new ones and their FTS rows come.
  const [replaced] = await env.DB.batch<{ id: string }>([
    env.DB.prepare("delete from text_nodes where file_id = ? returning id").bind(file.id),
    ...chunk(rows, ROWS_PER_STATEMENT).flatMap((part) => {
      const data = JSON.stringify(part);
      return [
        env.DB.prepare(
          `insert into text_nodes (id, knowledge_base_id, file_id, position, text, hits_count,
             page_start, page_end, start_char_idx, end_char_idx, created_at, updated_at)
           select j.value ->> '$.id', j.value ->> '$.kb', j.value ->> '$.file', j.value ->> '$.position',
                  j.value ->> '$.text', 0,
                  j.value ->> '$.pageStart', j.value ->> '$.pageEnd', j.value ->> '$.start', j.value ->> '$.end', ?2, ?2
           from json_each(?1) as j`,
        ).bind(data, now),
        env.DB.prepare(
          "insert into text_nodes_fts (rowid, terms) select t.rowid, j.value ->> '$.terms' from json_each(?1) " +
            "as j join text_nodes as t on t.id = j.value ->> '$.id'",
        ).bind(data),
      ];
    }),
  ]);
  // Two deliveries of one message may run at once (queues deliver at least once). Chunks that another
  // run wrote after this run read the file's chunks leave the indexes here, since this run's batch
  // took them out of D1...
  const known = new Set(before);
  await dropFromIndexes(
    env,
    file,
    replaced.results.map((r) => r.id).filter((id) => !known.has(id)),
  );
  // Fault injection (tests and `npm run chaos` only): this delivery dies once its first N chunks are in.
  const dieAfter = injectedFaultAfter(env, file.filename, attempt);
  const written = nodes.slice(0, dieAfter ?? nodes.length);
  await staged("indexing", () =>
    indexKeywordTexts(
      env,
      file.knowledgeBaseId,
      written.map((n) => ({ id: n.id, type: "text_node" as const, sourceId: file.id, text: n.text })),
    ),
  );
  await staged("indexing", () =>
    vectorStoreFor(env).upsert(
      file.knowledgeBaseId,
      written.map((n, i) => ({ id: n.id, values: vectors[i], type: "text_node" as const, sourceId: file.id })),
    ),
  );
  if (dieAfter !== null) throw new InjectedIngestionFault(written.length, nodes.length);
  // ...and this run's own chunks leave them when another run's batch has replaced them in D1 since (a
  // batch replaces all of a file's chunks or none: one id tells). That run then finishes the file.
  if (nodes.length && !(await env.DB.prepare("select 1 from text_nodes where id = ?").bind(nodes[0].id).first())) {
    await dropFromIndexes(
      env,
      file,
      nodes.map((n) => n.id),
    );
    return;
  }
  // The built-in embedding is trained on the base's own text: retrain as it grows (see knowledge-base.ts).
  await staged("indexing", () =>
    refreshKnowledgeBaseEmbedding(
      env,
      db,
      embedder,
      nodes.map((n) => ({ id: n.id, text: n.text, type: "text_node" as const, sourceId: file.id })),
    ),
  );
  const finishedAt = Date.now();
  await db
    .update(knowledgeBaseFiles)
    .set({
      status: "done",
      finishedAt,
      chunksCount: nodes.length,
      vectorStorageSize: nodes.length * embedder.dimensions * VECTOR_BYTES_PER_DIMENSION,
      processingTimeDetails: {
        pages: doc.pages.length,
        parsingMs: t1 - t0,
        embeddingMs: t2 - t1,
        indexingMs: finishedAt - t2,
        totalMs: finishedAt - startedAt,
      },
    })
    .where(current(file));
}
