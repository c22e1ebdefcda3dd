import type { VectorFilter, VectorMatch, VectorStore } from "./types";

/** What is used of the binding; the current `Vectorize` and the older `VectorizeIndex` both have it. */
interface VectorizeBinding {
  query(vector: number[], options: VectorizeQueryOptions): Promise<VectorizeMatches>;
  upsert(vectors: VectorizeVector[]): Promise<unknown>;
  deleteByIds(ids: string[]): Promise<unknown>;
  getByIds(ids: string[]): Promise<{ id: string; values: number[] | Float32Array | Float64Array }[]>;
}

/** Vectorize accepts up to 1,000 vectors per upsert and 1,000 ids per delete. */
const BATCH = 1_000;
/** Vectorize's largest topK when metadata is returned. */
export const VECTORIZE_MAX_TOP_K = 50;

/**
 * Cloudflare Vectorize, one namespace per knowledge base; each vector's metadata holds `type` and
 * `sourceId` (the index needs a metadata index on `sourceId` for filtering:
 * `wrangler vectorize create-metadata-index <index> --property-name sourceId --type string`).
 * Mutations are asynchronous at Vectorize: a vector upserted now is found a few seconds later.
 *
 * `count` answers -1 (unknown): Vectorize counts vectors per index (describe), not per namespace,
 * and that total would be wrong for any one knowledge base.
 */
export function vectorizeVectorStore(index: VectorizeBinding): VectorStore {
  return {
    async upsert(knowledgeBaseId, records) {
      for (let i = 0; i < records.length; i += BATCH) {
        await index.upsert(
          records.slice(i, i + BATCH).map((r) => ({
            id: r.id,
            values: r.values,
            namespace: knowledgeBaseId,
            metadata: { type: r.type, sourceId: r.sourceId },
          })),
        );
      }
    },
    async query(knowledgeBaseId, vector, { topK, filter }) {
      const where = metadataFilter(filter);
      if (where === null || topK <= 0) return [];
      const result = await index.query(vector, {
        topK: Math.min(topK, VECTORIZE_MAX_TOP_K),
        namespace: knowledgeBaseId,
        returnMetadata: "all",
        ...(where ? { filter: where } : {}),
      });
      return result.matches.map(
        (m): VectorMatch => ({
          id: m.id,
          score: m.score,
          type: m.metadata?.type === "faq" ? "faq" : "text_node",
          sourceId: String(m.metadata?.sourceId ?? ""),
        }),
      );
    },
    async deleteByIds(_knowledgeBaseId, ids) {
      // Ids (uuid v7 of text nodes and FAQs) are unique across the whole index, so no namespace is needed.
      for (let i = 0; i < ids.length; i += BATCH) await index.deleteByIds(ids.slice(i, i + BATCH));
    },
    async getByIds(_knowledgeBaseId, ids) {
      if (!ids.length) return [];
      return (await index.getByIds(ids.slice(0, BATCH))).map((v) => Array.from(v.values));
    },
    async count() {
      return -1;
    },
  };
}

/**
 * The sourceId filter; null when nothing can match (an empty `in`). With both lists, `in` minus
 * `notIn` says the same thing with one operator, which Vectorize filters accept without doubt.
 */
export function metadataFilter(filter: VectorFilter | undefined): VectorizeVectorMetadataFilter | undefined | null {
  const only = filter?.sourceIds?.in;
  const except = filter?.sourceIds?.notIn?.length ? new Set(filter.sourceIds.notIn) : null;
  if (only) {
    const ids = except ? only.filter((id) => !except.has(id)) : only;
    return ids.length ? { sourceId: { $in: ids } } : null;
  }
  return except ? { sourceId: { $nin: [...except] } } : undefined;
}
