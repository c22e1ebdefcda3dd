import type { Bindings } from "../../env";
import { throttled } from "../../lib/errors";
import { takeToken } from "../rate-limit";

/** Requests a minute one client (address) may make to one web chat's public endpoints. */
export const DEFAULT_CLIENT_LIMIT = 120;
/** Requests a minute all clients together may make to one web chat's public endpoints. */
export const DEFAULT_WEB_CHAT_LIMIT = 6000;

/** The client's address as Cloudflare gives it (`CF-Connecting-IP`, which clients cannot set through Cloudflare). */
export const clientAddress = (headers: Headers) =>
  headers.get("CF-Connecting-IP") ?? headers.get("X-Real-IP") ?? "unknown";

/**
 * Public widget endpoints are limited per web chat and per client (CONTRACT section 14), with the
 * same counters as API keys (src/services/rate-limit.ts): WIDGET_RATE_LIMIT_PER_MINUTE per client
 * (default 120) and WIDGET_WEB_CHAT_RATE_LIMIT_PER_MINUTE per web chat (default 6,000). 429 `throttled`
 * with Retry-After.
 */
export function limitWidget(env: Bindings, webChatId: string, client: string) {
  const perClient = Number(env.WIDGET_RATE_LIMIT_PER_MINUTE) || DEFAULT_CLIENT_LIMIT;
  const perChat = Number(env.WIDGET_WEB_CHAT_RATE_LIMIT_PER_MINUTE) || DEFAULT_WEB_CHAT_LIMIT;
  const now = Date.now();
  for (const [key, limit] of [
    [`widget:${webChatId}:${client}`, perClient],
    [`widget:${webChatId}`, perChat],
  ] as const) {
    const { allowed, retryAfter } = takeToken(env, key, now, limit);
    if (!allowed) throw throttled(retryAfter);
  }
}
