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
  /** The total of the window before `#window` (0 when it was not the one just before). */
  #previous = 0;

  #moveTo(window: number) {
    if (window <= this.#window) return;
    this.#previous = window === this.#window + 1 ? this.#total : 0;
    this.#window = window;
    this.#total = 0;
  }

  /** Adds `count` requests to `window` (minutes since the epoch) and returns the window's total. */
  add(window: number, count: number): number {
    this.#moveTo(window);
    // A late flush of a window that has ended counts for nothing.
    if (window === this.#window) this.#total += count;
    return window === this.#window ? this.#total : 0;
  }

  /**
   * Adds `count` to `window` and returns its total with the one before's, for a count over a sliding window
   * (src/services/rate-limit.ts `addSliding`). A count for the window just ended (a give-back sent after the turn)
   * goes to it.
   */
  addSliding(window: number, count: number): { total: number; previous: number } {
    this.#moveTo(window);
    if (window === this.#window) this.#total += count;
    else if (window === this.#window - 1) this.#previous += count;
    return window === this.#window
      ? { total: this.#total, previous: this.#previous }
      : { total: window === this.#window - 1 ? this.#previous : 0, previous: 0 };
  }
}
