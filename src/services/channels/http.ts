// Requests to a messaging platform's API: its origin from the settings (stand-ins in tests and
// local development), the outbound guard, a deadline, and failures as PlatformError.
import type { Bindings } from "../../env";
import { describeFetchFailure, timedOutAfter } from "../../lib/outbound-errors";
import { outboundAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import { PlatformError, type ChannelConfig, type PlatformApi, type PlatformContext } from "./types";

/** Each API's origin setting and the platform's own origin (CONTRACT section 17). */
export const PLATFORM_ORIGINS: Record<PlatformApi, { setting: keyof Bindings; origin: string }> = {
  line: { setting: "LINE_API_ORIGIN", origin: "https://api.line.me" },
  lineData: { setting: "LINE_DATA_API_ORIGIN", origin: "https://api-data.line.me" },
  telegram: { setting: "TELEGRAM_API_ORIGIN", origin: "https://api.telegram.org" },
  graph: { setting: "GRAPH_API_ORIGIN", origin: "https://graph.facebook.com" },
  slack: { setting: "SLACK_API_ORIGIN", origin: "https://slack.com" },
};

const TIMEOUT_MS = 15_000;

/** The API's base URL: the setting (an origin, or an origin with a path) or the platform's own. */
export function platformBase(env: Bindings, api: PlatformApi): string {
  const { setting, origin } = PLATFORM_ORIGINS[api];
  return ((env[setting] as string | undefined)?.trim() || origin).replace(/\/+$/, "");
}

/** A request to the platform; its answer whatever the status (PlatformError only when there is none). */
export const callPlatform = (env: Bindings, api: PlatformApi, path: string, init: RequestInit = {}) =>
  fetchPlatform(env, api, `${platformBase(env, api)}${path.startsWith("/") ? path : `/${path}`}`, init);

/** `fetch` of a URL of the platform (a library's client builds it), with the same guard and deadline. */
export async function fetchPlatform(
  env: Bindings,
  api: PlatformApi,
  url: string,
  init: RequestInit = {},
): Promise<Response> {
  const problem = webhookUrlProblem(url, outboundAllowedHosts(env));
  if (problem) throw new PlatformError(`${PLATFORM_ORIGINS[api].setting}: ${problem}`, null);
  return fetchAnswer(url, init);
}

/**
 * `fetch` of a URL the caller has checked against the outbound guard, redirects not followed (the guard checked this
 * URL, not where it might send us), within a deadline. No answer at all (a name that does not resolve, a refused or
 * dropped connection, the deadline) is the far side failing, not our code: a retryable PlatformError, so the intake
 * tries again and, for a file, gives it up after its few attempts (docs/decisions.md, "Messaging channels"). Used
 * for the platform's API and for hosts a platform points at (a LINE file shared from elsewhere, Slack's file host).
 */
export async function fetchAnswer(url: string | URL, init: RequestInit = {}, ms = TIMEOUT_MS): Promise<Response> {
  const timeout = AbortSignal.timeout(ms);
  try {
    return await fetch(url, { ...init, redirect: "manual", signal: timeout });
  } catch (err) {
    const host = new URL(url).host;
    if (timeout.aborted) throw new PlatformError(`${host} ${timedOutAfter(ms)}`, null);
    throw new PlatformError(`could not reach ${host}: ${await describeFetchFailure(err, url)}`, null);
  }
}

export const platformContext = (env: Bindings, channel: ChannelConfig): PlatformContext => ({
  env,
  channel,
  call: (api, path, init) => callPlatform(env, api, path, init),
});

/** Seconds a 429's Retry-After asks for (seconds or an HTTP date), if it says. */
export function retryAfterSeconds(response: Response, now = Date.now()): number | undefined {
  const value = response.headers.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The platform's refusal as a PlatformError naming what it said: "LINE answered 400: The request
 * body has 1 error(s)". `said` is the platform's own message from its error body.
 */
export async function refusal(
  platformName: string,
  response: Response,
  said?: (body: unknown) => string | undefined,
): Promise<PlatformError> {
  const text = await response.text().catch(() => "");
  let message: string | undefined;
  try {
    message = said?.(JSON.parse(text));
  } catch {
    message = undefined;
  }
  message ??= text.slice(0, 300) || response.statusText;
  return new PlatformError(
    `${platformName} answered ${response.status}: ${message}`,
    response.status,
    response.status === 429 ? retryAfterSeconds(response) : undefined,
  );
}
