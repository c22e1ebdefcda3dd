/** Types of index.mjs (a plain ES module, shared with the benchmarks). */
export declare const STAND_INS: Record<string, { module: string; settings: string[] }>;
export declare function startPlatforms(): Promise<{
  urls: Record<string, string>;
  settings: Record<string, string>;
  close(): Promise<unknown>;
}>;
