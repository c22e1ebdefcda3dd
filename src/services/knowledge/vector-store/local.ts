import type { VectorIndex } from "../../../../durable-objects/vector-index";
import type { VectorStore } from "./types";

/** Records per RPC call: 2,000 vectors of 1,024 numbers stay well inside the 32 MiB RPC message limit. */
export const UPSERT_CHUNK = 2_000;

/** The local store: one VectorIndex Durable Object per knowledge base (durable-objects/vector-index.ts). */
export function localVectorStore(namespace: DurableObjectNamespace<VectorIndex>): VectorStore {
  const index = (knowledgeBaseId: string) => namespace.get(namespace.idFromName(knowledgeBaseId));
  return {
    async upsert(knowledgeBaseId, records) {
      const stub = index(knowledgeBaseId);
      for (let i = 0; i < records.length; i += UPSERT_CHUNK) await stub.upsert(records.slice(i, i + UPSERT_CHUNK));
    },
    async query(knowledgeBaseId, vector, options) {
      return index(knowledgeBaseId).query(vector, options);
    },
    async deleteByIds(knowledgeBaseId, ids) {
      if (ids.length) await index(knowledgeBaseId).deleteByIds(ids);
    },
    async getByIds(knowledgeBaseId, ids) {
      return index(knowledgeBaseId).vectorsOf(ids);
    },
    async count(knowledgeBaseId) {
      return index(knowledgeBaseId).count();
    },
  };
}
