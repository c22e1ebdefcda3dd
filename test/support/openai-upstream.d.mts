/** Types of openai-upstream.mjs (a plain ES module, shared with the benchmarks). */
export declare const UPSTREAM_API_KEY: string;
export declare const DEFAULT_TOKENS: number;
export declare function answerPieces(n?: number): string[];
export interface Upstream {
  port: number;
  url: string;
  close(): Promise<void>;
}
export declare function startUpstream(options?: { tokenDelayMs?: number }): Promise<Upstream>;
