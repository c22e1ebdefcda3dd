/** Types of webhook-receiver.mjs (a plain ES module, shared with the benchmarks). */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}
export interface Receiver {
  port: number;
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}
export declare function startReceiver(): Promise<Receiver>;
