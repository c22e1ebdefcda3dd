import type { Bindings } from "../env";
import { ApiError } from "../lib/errors";
import { logWarn } from "../lib/log";
import { addShared } from "./rate-limit";

/** Failed sign-ins are counted in fixed windows of this length. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const DEFAULT_FAILURES_PER_EMAIL = 10;
/** Higher than per e-mail: an office or a carrier puts many people behind one address. */
export const DEFAULT_FAILURES_PER_CLIENT = 50;

/** Who signs in: the e-mail tried (none with an API key) and the client's address where Cloudflare gives it. */
export interface SignInAttempt {
  email?: string;
  /** `CF-Connecting-IP`, which clients cannot set through Cloudflare; without it (local runs) nothing is counted per
   * address, as one shared "unknown" would let anyone lock every user out. */
  client: string | null;
}

function countersOf(env: Bindings, who: SignInAttempt): [string, number][] {
  const counters: [string, number][] = [];
  if (who.email)
    counters.push([
      `sign-in:email:${who.email.toLowerCase()}`,
      Number(env.SIGN_IN_FAILURES_PER_EMAIL) || DEFAULT_FAILURES_PER_EMAIL,
    ]);
  if (who.client)
    counters.push([
      `sign-in:client:${who.client}`,
      Number(env.SIGN_IN_FAILURES_PER_CLIENT) || DEFAULT_FAILURES_PER_CLIENT,
    ]);
  return counters;
}

const tooManyFailures = (retryAfter: number) =>
  new ApiError(
    429,
    "throttled",
    `Too many failed sign-ins for this account or from this address. Try again in ${retryAfter} seconds.`,
    undefined,
    { "Retry-After": String(retryAfter) },
  );

/**
 * Checks credentials with `check` (the user, or undefined when they are wrong) unless too many sign-ins failed in the
 * last window for this e-mail or this client (429 `throttled` with Retry-After, whatever the credentials), so a
 * password cannot be guessed at the worker's speed. Each attempt takes its place in the counts before the check and
 * gives it back when it succeeds: attempts at once cannot all pass under the limit, and a success does not count.
 * The counts are the shared RateLimiter objects', awaited (docs/decisions.md, "Rate limiting"); one that cannot be
 * reached limits nothing rather than stop every sign-in.
 */
export async function limitFailedSignIns<T>(
  env: Bindings,
  who: SignInAttempt,
  check: () => Promise<T | undefined>,
  now = Date.now(),
): Promise<T | undefined> {
  const counters = countersOf(env, who);
  const add = (count: number) =>
    Promise.all(counters.map(([key]) => addShared(env, key, count, SIGN_IN_WINDOW_MS, now))).catch((err) => {
      logWarn("sign-in limit unavailable", { error: String(err) });
      return null;
    });
  const taken = await add(1);
  const over = taken?.filter(({ total }, i) => total > counters[i][1]) ?? [];
  if (over.length) throw tooManyFailures(Math.max(...over.map((o) => o.retryAfter)));
  const found = await check();
  if (found !== undefined && taken) await add(-1);
  return found;
}
