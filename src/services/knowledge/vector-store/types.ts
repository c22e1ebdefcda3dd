/**
 * Where chunk vectors live (STYLE 6): Cloudflare Vectorize when the VECTORIZE binding exists, else
 * the local store (durable-objects/vector-index.ts, one object per knowledge base). Every call names
 * the knowledge base; a vector is a text node or an FAQ, and `sourceId` is the file it comes from
 * (text nodes) or the FAQ itself, so that a contact's restrictions can filter on it.
 */
export interface VectorRecord {
  /** The text node's or FAQ's id. */
  id: string;
  values: number[];
  type: "text_node" | "faq";
  sourceId: string;
}

/** Restricts a query to some sources (`in`) or away from some (`notIn`); both may be given. */
export interface VectorFilter {
  sourceIds?: { in?: string[]; notIn?: string[] };
}

export interface VectorMatch {
  id: string;
  /** Cosine similarity, -1..1. */
  score: number;
  type: "text_node" | "faq";
  sourceId: string;
}

export interface VectorStore {
  upsert(knowledgeBaseId: string, records: VectorRecord[]): Promise<void>;
  /** The `topK` nearest vectors of the knowledge base, best first. */
  query(
    knowledgeBaseId: string,
    vector: number[],
    options: { topK: number; filter?: VectorFilter },
  ): Promise<VectorMatch[]>;
  deleteByIds(knowledgeBaseId: string, ids: string[]): Promise<void>;
  /** The stored vectors of some ids (those it holds). */
  getByIds(knowledgeBaseId: string, ids: string[]): Promise<number[][]>;
  /** How many vectors the knowledge base holds. */
  count(knowledgeBaseId: string): Promise<number>;
}
