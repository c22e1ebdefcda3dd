import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../src/env";

/**
 * One instance per API key: the key's request count in the current one-minute window, across
 * every isolate. Isolates add their counts in batches (src/services/rate-limit.ts), so no request
 * waits for this object. The count lives in memory, not storage: a count is worth a minute at
 * most, a restarted object forgets at most that, and no storage write runs on every flush.
 */
export class RateLimiter extends DurableObject<Bindings> {
  #window = 0;
  #total = 0;

  /** Adds `count` requests to `window` (minutes since the epoch) and returns the window's total. */
  add(window: number, count: number): number {
    if (window > this.#window) {
      this.#window = window;
      this.#total = 0;
    }
    // A late flush of a window that has ended counts for nothing.
    if (window === this.#window) this.#total += count;
    return window === this.#window ? this.#total : 0;
  }
}
