/** Types of openai-upstream.mjs (a plain ES module, shared with the benchmarks). */
export declare const UPSTREAM_API_KEY: string;
export declare const DEFAULT_TOKENS: number;
export declare function answerPieces(n?: number): string[];
export interface Upstream {
  port: number;
  url: string;
  /** The latest requests (500 at most), oldest first; `arrivedAt` and `firstWordAt` are performance.now() times. */
  requests: { body: unknown; aborted: boolean; arrivedAt: number; firstWordAt?: number }[];
  close(): Promise<void>;
}
export declare function startUpstream(options?: { tokenDelayMs?: number; port?: number }): Promise<Upstream>;
