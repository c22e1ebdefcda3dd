import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/** The widget's public endpoints, after the prefix. */
export const WIDGET_PUBLIC_PATH = /^\/api(?:\/v1)?\/web-chats\/[^/]+\/public\//;

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Last-Event-ID",
  "Access-Control-Expose-Headers": "X-Request-Id, Retry-After",
  "Access-Control-Max-Age": "86400",
};

/**
 * The widget runs on the business's site and calls its public endpoints from there: any origin may
 * (the visitor token, not a cookie, is the credential, so no credentials mode). Preflights are
 * answered here, before authentication and rate limits.
 */
export const widgetCors = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!WIDGET_PUBLIC_PATH.test(c.req.path)) return next();
    if (c.req.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS_HEADERS });
    await next();
    for (const [name, value] of Object.entries(CORS_HEADERS)) c.res.headers.set(name, value);
  });
