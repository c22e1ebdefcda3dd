import type { Bindings } from "../env";
import { ApiError } from "../lib/errors";
import { logWarn } from "../lib/log";
import { addSliding } from "./rate-limit";

/** Failed sign-ins are counted over the last this long (a sliding window: `addSliding`). */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Per e-mail from one client address (from anywhere when the address is not known). */
export const DEFAULT_FAILURES_PER_EMAIL = 10;
/** Per e-mail from every address together: guessing spread over many addresses stays bounded. */
export const DEFAULT_FAILURES_PER_ACCOUNT = 100;
/** Higher than per e-mail: an office or a carrier puts many people behind one address. */
export const DEFAULT_FAILURES_PER_CLIENT = 50;

/** Who signs in: the e-mail tried (none with an API key) and the client's address where Cloudflare gives it. */
export interface SignInAttempt {
  email?: string;
  /** `CF-Connecting-IP`, which clients cannot set through Cloudflare; without it (local runs) nothing is counted per
   * address, as one shared "unknown" would let anyone lock every user out. */
  client: string | null;
}

/**
 * The address a client is counted by: an IPv6 address by its /64, the block one subscriber or one server is given,
 * so that stepping through it does not make a new client at each request.
 */
export function clientOf(address: string): string {
  if (!address.includes(":")) return address;
  const [head, tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * Which counts an attempt takes its place in. Per e-mail, the count is the e-mail's from one address: a stranger's
 * failures from elsewhere then hold back neither the account's owner nor their office, while the count of every
 * address together (`SIGN_IN_FAILURES_PER_ACCOUNT`) still bounds guessing spread over many (docs/decisions.md,
 * "Rate limiting").
 */
function countersOf(env: Bindings, who: SignInAttempt): [string, number][] {
  const counters: [string, number][] = [];
  const email = who.email?.toLowerCase();
  const client = who.client ? clientOf(who.client) : null;
  const perEmail = Number(env.SIGN_IN_FAILURES_PER_EMAIL) || DEFAULT_FAILURES_PER_EMAIL;
  if (email && client) {
    counters.push([`sign-in:email:${email}:client:${client}`, perEmail]);
    counters.push([`sign-in:email:${email}`, Number(env.SIGN_IN_FAILURES_PER_ACCOUNT) || DEFAULT_FAILURES_PER_ACCOUNT]);
  } else if (email) counters.push([`sign-in:email:${email}`, perEmail]);
  if (client)
    counters.push([`sign-in:client:${client}`, Number(env.SIGN_IN_FAILURES_PER_CLIENT) || DEFAULT_FAILURES_PER_CLIENT]);
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
 * last 15 minutes for this e-mail or this client (429 `throttled` with Retry-After, whatever the credentials), so a
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
    Promise.all(counters.map(([key]) => addSliding(env, key, count, SIGN_IN_WINDOW_MS, now))).catch((err) => {
      logWarn("sign-in limit unavailable", { error: String(err) });
      return null;
    });
  const taken = await add(1);
  const over = taken?.flatMap(({ total, retryAfter }, i) =>
    total > counters[i][1] ? [retryAfter(counters[i][1])] : [],
  );
  if (over?.length) {
    // A refused attempt checks nothing, so it does not count: retrying while held back does not hold back longer.
    await add(-1);
    throw tooManyFailures(Math.max(...over));
  }
  const found = await check();
  if (found !== undefined && taken) await add(-1);
  return found;
}
