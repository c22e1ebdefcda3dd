// Trying again after a failure a retry may mend (the network, the server busy): the live stream's back-off, and the
// same for the work the page does in the background, which nobody would try again otherwise.

/**
 * The pause before trying again: none after a try that worked (`failures` 0), else 1 s doubling with each failure in
 * a row, at most 30 s.
 */
export const backOff = (failures: number) => (failures ? Math.min(30_000, 1000 * 2 ** (failures - 1)) : 0);

/**
 * Waits `ms`, or less when `signal` aborts or the browser is online again (the back-off is for a network that is
 * down, and the browser says it is back); leaves no listener behind (the live stream pauses for hours).
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      removeEventListener("online", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    if (signal?.aborted) return done();
    signal?.addEventListener("abort", done, { once: true });
    addEventListener("online", done, { once: true });
  });
}

/**
 * Work of the page's own that failed for a reason a retry may mend (taking other tabs' messages, starting the session,
 * following another tab's conversation): tried again by the page itself after the back-off, once at a time. Before,
 * such work waited for the visitor to do something, and a page left open with nothing to do never did it
 * (docs/decisions.md, "The outbox").
 */
export class Retry {
  #due = false;
  #failures = 0;

  /** Calls `again` after the back-off, unless a try is due already. */
  later(again: () => void) {
    if (this.#due) return;
    this.#due = true;
    void pause(backOff(++this.#failures)).then(() => {
      this.#due = false;
      again();
    });
  }

  /** The work is done: a later failure is tried again 1 s after. */
  done() {
    this.#failures = 0;
  }

  /** The last try failed, and none has worked since. */
  get failing() {
    return this.#failures > 0;
  }
}
