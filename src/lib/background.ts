import { waitUntil } from "cloudflare:workers";

/**
 * How long after a request its background work starts: by then its model has been asked and a
 * streamed reply's first words are on their way. Measured with `npm run bench -- completions`
 * (docs/decisions.md, "The streamed first byte"): started at once, a cache refresh's D1 read or the
 * rate limiter's object call ran on the local runtime's one thread just as the model's request or
 * its first word had to.
 */
export const BACKGROUND_DELAY_MS = 25;

/**
 * Runs `work` in the background of the current request (or object call), BACKGROUND_DELAY_MS
 * later: for what a request only starts and never waits for (a cache refresh, a rate-limit count
 * shared with other isolates).
 */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  const done = new Promise<void>((resolve) => setTimeout(resolve, BACKGROUND_DELAY_MS)).then(work);
  try {
    waitUntil(done);
  } catch {
    // Outside any request (module scope): nothing to keep alive.
  }
  return done;
}
