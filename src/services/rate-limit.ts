import type { Bindings } from "../env";
import { inBackground } from "../lib/background";
import { logWarn } from "../lib/log";

export const WINDOW_MS = 60_000;
export const DEFAULT_LIMIT_PER_MINUTE = 1200;
const FLUSH_EVERY_MS = 100;
const FLUSH_EVERY_REQUESTS = 50;

interface KeyWindow {
  window: number;
  /** Total of all isolates as of the last flush, including this isolate's flushed requests. */
  known: number;
  /** Requests of this isolate not yet added to the key's RateLimiter object. */
  pending: number;
  lastFlush: number;
  flushing: boolean;
}

const windows = new Map<string, KeyWindow>();

/**
 * Per-key fixed one-minute window, counted exactly in this isolate and shared with other isolates
 * through the key's RateLimiter Durable Object every 100 ms or 50 requests. Requests never wait for
 * the object, and a count goes out in the request's background (src/lib/background.ts);
 * across isolates the limit may be overshot by what they served between two flushes.
 */
export function takeToken(
  env: Bindings,
  key: string,
  now = Date.now(),
  limit = Number(env.RATE_LIMIT_PER_MINUTE) || DEFAULT_LIMIT_PER_MINUTE,
): { allowed: boolean; retryAfter: number } {
  const window = Math.floor(now / WINDOW_MS);
  let state = windows.get(key);
  if (!state || state.window !== window) {
    state = { window, known: 0, pending: 0, lastFlush: now, flushing: false };
    windows.set(key, state);
    pruneOldWindows(window);
  }
  if (state.known + state.pending >= limit) {
    return { allowed: false, retryAfter: Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000)) };
  }
  state.pending++;
  if (!state.flushing && (state.pending >= FLUSH_EVERY_REQUESTS || now - state.lastFlush >= FLUSH_EVERY_MS)) {
    state.flushing = true;
    inBackground(() => flush(env, key, state));
  }
  return { allowed: true, retryAfter: 0 };
}

async function flush(env: Bindings, key: string, state: KeyWindow) {
  const sent = state.pending;
  try {
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key));
    const total = await stub.add(state.window, sent);
    state.pending -= sent;
    state.known = Math.max(state.known, total);
  } catch (err) {
    // The count stays pending and goes with the next flush.
    logWarn("rate limit flush failed", { error: String(err) });
  } finally {
    state.lastFlush = Date.now();
    state.flushing = false;
  }
}

function pruneOldWindows(current: number) {
  if (windows.size < 10_000) return;
  for (const [k, s] of windows) if (s.window !== current) windows.delete(k);
}

/**
 * Adds `count` (negative: gives back) to `key` and returns its count over the last `size` ms, of every isolate, asked
 * of the key's RateLimiter object and awaited: for what is rare and must not be overshot, as failed sign-ins
 * (src/services/sign-in-limits.ts), where takeToken's batching would let each isolate go past the limit. The count
 * slides: the current window's total plus the share of the window before that is still within `size` (a fixed window
 * let twice the limit through across its edge, and forgot everything at it). A key keeps one window size.
 * `retryAfter(limit)`: seconds until one more would keep the count within `limit`, this one given back.
 */
export async function addSliding(env: Bindings, key: string, count: number, size: number, now = Date.now()) {
  const window = Math.floor(now / size);
  const { total, previous } = await env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key)).addSliding(window, count);
  const elapsed = (now - window * size) / size;
  const retryAfter = (limit: number) => {
    // Given back, this one's place is the next one's: `total` stays what it is now.
    const waited =
      total <= limit
        ? previous > 0
          ? Math.max(0, 1 - (limit - total) / previous - elapsed)
          : 0
        : 1 - elapsed + Math.max(0, 1 - (limit - 1) / Math.max(1, total - 1));
    return Math.max(1, Math.ceil((waited * size) / 1000));
  };
  return { total: total + previous * (1 - elapsed), retryAfter };
}
