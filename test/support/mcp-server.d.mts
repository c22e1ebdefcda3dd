/** Types of mcp-server.mjs (a plain ES module, shared with the benchmarks). */
export declare const GOOD_TOKEN: string;
export interface McpTestServer {
  port: number;
  url: string;
  stats: {
    sessions: number;
    requests: {
      method: string;
      path: string;
      authorization: string | null;
      apiKey: string | null;
      webhookSecret: string | null;
      webhookSignature: string | null;
      sessionId: string | null;
    }[];
    calls: { name: string; args: unknown; at: number }[];
  };
  close(): Promise<void>;
}
export declare function startMcpServer(): Promise<McpTestServer>;
