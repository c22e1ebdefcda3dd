import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../src/env";

/**
 * One instance per API key: the key's request count in the current one-minute window, across
 * every isolate. Isolates add their counts in batches (src/services/rate-limit.ts), so no request
 * waits for this object.
 */
export class RateLimiter extends DurableObject<Bindings> {
  /** Adds `count` requests to `window` (minutes since the epoch) and returns the window's total. */
  add(window: number, count: number): number {
    const stored = this.ctx.storage.kv.get<{ window: number; total: number }>("count");
    const total = (stored?.window === window ? stored.total : 0) + count;
    this.ctx.storage.kv.put("count", { window, total });
    return total;
  }
}
