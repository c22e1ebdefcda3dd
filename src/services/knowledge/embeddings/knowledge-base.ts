import { sql } from "drizzle-orm";
import type { Bindings, Db } from "../../../env";
import { vectorStoreFor, type VectorRecord } from "../vector-store";
import { knowledgeBaseTexts, knowledgeIndexOf } from "../retrieval/knowledge-index";
import { TRAINING_SAMPLE } from "./corpus";
import { LOCAL_EMBEDDING_DIMENSIONS } from "./local";
import type { EmbeddingModel } from "./types";

/**
 * The built-in (local) embedding model of one knowledge base: its corpus-trained model
 * (src/services/knowledge/embeddings/corpus.ts), held and applied by the base's VectorIndex Durable Object, so
 * that the documents and the queries of a base always meet the same model, whichever vector store
 * keeps the vectors. `versions` records which model versions made the vectors it returned.
 */
export interface KnowledgeBaseEmbeddingModel extends EmbeddingModel {
  readonly knowledgeBaseId: string;
  readonly versions: Set<number>;
}

/** Texts per call to the Durable Object. */
const EMBED_CALL = 500;

export function knowledgeBaseEmbeddingModel(
  env: Pick<Bindings, "VECTOR_INDEX">,
  knowledgeBaseId: string,
): KnowledgeBaseEmbeddingModel {
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

export const isKnowledgeBaseModel = (model: EmbeddingModel): model is KnowledgeBaseEmbeddingModel =>
  "versions" in model && "knowledgeBaseId" in model;

/**
 * Called after a file's (or FAQs') vectors are stored. When the base has grown by half since its model
 * was trained, retrains it on a spread sample of the base's text and re-embeds every chunk with the new
 * model; otherwise, when a newer model appeared while these vectors were being made (another file's
 * training), re-embeds just these. Remote models need neither.
 */
export async function refreshKnowledgeBaseEmbedding(
  env: Bindings,
  db: Db,
  model: EmbeddingModel,
  own: (Omit<VectorRecord, "values"> & { text: string })[],
) {
  if (!isKnowledgeBaseModel(model)) return;
  const kb = model.knowledgeBaseId;
  const index = knowledgeIndexOf(env, kb);
  const [{ chunks }] = await db.all<{ chunks: number }>(sql`
    select (select count(*) from text_nodes where knowledge_base_id = ${kb})
      + (select count(*) from faqs where knowledge_base_id = ${kb}) as chunks`);
  if (await index.claimTraining(chunks)) {
    // A multiplicative hash of the rowid spreads the sample over the whole base, the same rows every time.
    const sample = await db.all<{ text: string }>(sql`
      select text from (
        select text, (rowid * 2654435761) % 4294967296 as h from text_nodes where knowledge_base_id = ${kb}
        union all
        select question || char(10) || answer, (rowid * 2654435761) % 4294967296 from faqs
          where knowledge_base_id = ${kb})
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
    await vectorStoreFor(env).upsert(
      kb,
      own.map((o, i) => ({ id: o.id, type: o.type, sourceId: o.sourceId, values: vectors[i] })),
    );
  }
}

/** Every text node and FAQ of the base embedded again with its current model. */
async function reembedKnowledgeBase(env: Bindings, db: Db, kb: string) {
  const model = knowledgeBaseEmbeddingModel(env, kb);
  const store = vectorStoreFor(env);
  for await (const page of knowledgeBaseTexts(db, kb)) {
    const vectors = await model.embed(page.map((t) => t.text));
    await store.upsert(
      kb,
      page.map((t, i) => ({ id: t.id, type: t.type, sourceId: t.sourceId, values: vectors[i] })),
    );
  }
}
