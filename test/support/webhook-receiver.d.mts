/** Types of webhook-receiver.mjs (a plain ES module, shared with the benchmarks and chaos runs). */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
  /** What the receiver answered; null when it closed the connection or has not answered (yet). */
  status: number | null;
  /** `/chunked/`: whether the client read the whole body. */
  complete?: boolean;
}
export type FaultMode = "ok" | "down" | "slow" | "close" | "hang";
export interface Receiver {
  port: number;
  url: string;
  requests: ReceivedRequest[];
  /** The fault mode of `/switch/<key>/...` ("down": 503; "slow": 200 after `ms`). */
  setMode(key: string, mode: FaultMode, ms?: number): void;
  close(): Promise<void>;
}
export declare function startReceiver(): Promise<Receiver>;
