import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

/** The widget's public endpoints, after the prefix. */
export const WIDGET_PUBLIC_PATH = /^\/api(?:\/v1)?\/web-chats\/[^/]+\/public\//;
/** Our own object routes (presigned upload targets, signed downloads): the widget uploads visitors' files there. */
const OBJECT_PATH = /^\/api(?:\/v1)?\/uploads\//;

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Last-Event-ID, Idempotency-Key",
  "Access-Control-Expose-Headers": "X-Request-Id, Retry-After, Idempotent-Replayed",
  "Access-Control-Max-Age": "86400",
};
/** As S3 answers a bucket's CORS rule for browser uploads: the signed policy or URL is the credential. */
const OBJECT_CORS_HEADERS = {
  ...CORS_HEADERS,
  "Access-Control-Allow-Methods": "GET, POST, PUT, OPTIONS",
  "Access-Control-Expose-Headers": "X-Request-Id, ETag, Location",
};

/**
 * The widget runs on the business's site and calls its public endpoints from there: any origin may
 * (the visitor token, not a cookie, is the credential, so no credentials mode). Preflights are
 * answered here, before authentication and rate limits.
 */
export const widgetCors = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    const headers = WIDGET_PUBLIC_PATH.test(c.req.path)
      ? CORS_HEADERS
      : OBJECT_PATH.test(c.req.path)
        ? OBJECT_CORS_HEADERS
        : null;
    if (!headers) return next();
    if (c.req.method === "OPTIONS") return new Response(null, { status: 204, headers });
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  });
