/** One reranker interface for every provider (STYLE 6): local, OpenAI-compatible, Workers AI. */
export interface Reranker {
  /** A relevance score in 0..1 for each document against the query, in the documents' order. */
  rerank(query: string, documents: string[]): Promise<number[]>;
}
