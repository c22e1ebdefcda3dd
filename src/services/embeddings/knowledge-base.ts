import { sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { vectorStoreFor, type VectorRecord } from "../vector-store";
import { knowledgeIndexOf } from "../retrieval/knowledge-index";
import { TRAINING_SAMPLE } from "./corpus";
import { LOCAL_EMBEDDING_DIMENSIONS } from "./local";
import type { EmbeddingModel } from "./types";

/**
 * The built-in (local) embedding model of one knowledge base: its corpus-trained model
 * (src/services/embeddings/corpus.ts), held and applied by the base's VectorIndex Durable Object, so
 * that the documents and the queries of a base always meet the same model, whichever vector store
 * keeps the vectors. `versions` records which model versions made the vectors it returned.
 */
export interface KnowledgeBaseEmbeddingModel extends EmbeddingModel {
  readonly knowledgeBaseId: string;
  readonly versions: Set<number>;
}

/** Texts per call to the Durable Object. */
const EMBED_CALL = 500;
/** Rows read per page when a new model re-embeds the whole base. */
const REEMBED_PAGE = 1000;

export function knowledgeBaseEmbeddingModel(env: Pick<Bindings, "VECTOR_INDEX">, knowledgeBaseId: string): KnowledgeBaseEmbeddingModel {
  const versions = new Set<number>();
  return {
    dimensions: LOCAL_EMBEDDING_DIMENSIONS,
    knowledgeBaseId,
    versions,
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += EMBED_CALL) {
        const { version, vectors } = await knowledgeIndexOf(env, knowledgeBaseId).embed(texts.slice(i, i + EMBED_CALL));
        versions.add(version);
        out.push(...vectors);
      }
      return out;
    },
  };
}

export const isKnowledgeBaseModel = (model: EmbeddingModel): model is KnowledgeBaseEmbeddingModel => "versions" in model && "knowledgeBaseId" in model;

/**
 * Called after a file's (or FAQs') vectors are stored. When the base has grown by half since its model
 * was trained, retrains it on a spread sample of the base's text and re-embeds every chunk with the new
 * model; otherwise, when a newer model appeared while these vectors were being made (another file's
 * training), re-embeds just these. Remote models need neither.
 */
export async function refreshKnowledgeBaseEmbedding(env: Bindings, db: Db, model: EmbeddingModel, own: (Omit<VectorRecord, "values"> & { text: string })[]) {
  if (!isKnowledgeBaseModel(model)) return;
  const kb = model.knowledgeBaseId;
  const index = knowledgeIndexOf(env, kb);
  const [{ chunks }] = await db.all<{ chunks: number }>(sql`
    select (select count(*) from text_nodes where knowledge_base_id = ${kb}) + (select count(*) from faqs where knowledge_base_id = ${kb}) as chunks`);
  if (await index.claimTraining(chunks)) {
    // A multiplicative hash of the rowid spreads the sample over the whole base, the same rows every time.
    const sample = await db.all<{ text: string }>(sql`
      select text from (select text, (rowid * 2654435761) % 4294967296 as h from text_nodes where knowledge_base_id = ${kb}
                        union all select question || char(10) || answer, (rowid * 2654435761) % 4294967296 from faqs where knowledge_base_id = ${kb})
      order by h limit ${TRAINING_SAMPLE}`);
    const before = (await index.embeddingVersion()).version;
    const version = await index.train(
      sample.map((r) => r.text),
      chunks,
    );
    if (version !== before) await reembedKnowledgeBase(env, db, kb);
    return;
  }
  const { version } = await index.embeddingVersion();
  if (own.length && [...model.versions].some((v) => v !== version)) {
    const fresh = knowledgeBaseEmbeddingModel(env, kb);
    const vectors = await fresh.embed(own.map((o) => o.text));
    await vectorStoreFor(env).upsert(kb, own.map((o, i) => ({ id: o.id, type: o.type, sourceId: o.sourceId, values: vectors[i] })));
  }
}

/** Every text node and FAQ of the base embedded again with its current model. */
async function reembedKnowledgeBase(env: Bindings, db: Db, kb: string) {
  const model = knowledgeBaseEmbeddingModel(env, kb);
  const store = vectorStoreFor(env);
  for (const table of ["text_nodes", "faqs"] as const) {
    for (let after = 0; ; ) {
      const rows = await db.all<{ rowid: number; id: string; text: string; source: string }>(
        table === "text_nodes"
          ? sql`select rowid, id, text, file_id as source from text_nodes where knowledge_base_id = ${kb} and rowid > ${after} order by rowid limit ${REEMBED_PAGE}`
          : sql`select rowid, id, question || char(10) || answer as text, id as source from faqs where knowledge_base_id = ${kb} and rowid > ${after} order by rowid limit ${REEMBED_PAGE}`,
      );
      if (!rows.length) break;
      after = rows[rows.length - 1].rowid;
      const vectors = await model.embed(rows.map((r) => r.text));
      await store.upsert(kb, rows.map((r, i) => ({ id: r.id, type: table === "faqs" ? "faq" : "text_node", sourceId: r.source, values: vectors[i] })));
    }
  }
}
