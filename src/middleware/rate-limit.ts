import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { throttled } from "../lib/errors";
import { takeToken } from "../services/rate-limit";

/**
 * Requests the worker makes to itself as part of a request already counted (the tools of /mcp call the API): they
 * are not counted again. Marked by object identity, so nothing a client sends (a header, a path) can mark one.
 */
const counted = new WeakSet<Request>();

/** Marks a request the worker sends to itself for a request already counted; returns it. */
export function countedAlready(request: Request): Request {
  counted.add(request);
  return request;
}

/** Per-API-key (or console session) limit, RATE_LIMIT_PER_MINUTE (default 1,200) requests a minute (CONTRACT section
 * 8). */
export const rateLimit = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    const principal = c.get("principal");
    if (principal && !counted.has(c.req.raw)) {
      const { allowed, retryAfter } = takeToken(c.env, principal.apiKeyId ?? principal.session!.id);
      if (!allowed) throw throttled(retryAfter);
    }
    await next();
  });
