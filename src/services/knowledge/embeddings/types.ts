/** One embedding interface for every provider (STYLE 6): local, OpenAI-compatible, Workers AI. */
export interface EmbeddingModel {
  /** Length of every vector it returns. */
  readonly dimensions: number;
  /**
   * One unit-length vector per text, in order. `kind` lets providers that embed queries and
   * documents differently do so; the local model treats both alike.
   */
  embed(texts: string[], kind?: "document" | "query"): Promise<number[][]>;
}
