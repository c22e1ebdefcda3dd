import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { throttled } from "../lib/errors";
import { takeToken } from "../services/rate-limit";

/** Per-API-key (or console session) limit, RATE_LIMIT_PER_MINUTE (default 1,200) requests a minute (CONTRACT section
 * 8). */
export const rateLimit = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    const principal = c.get("principal");
    if (principal) {
      const { allowed, retryAfter } = takeToken(c.env, principal.apiKeyId ?? principal.session!.id);
      if (!allowed) throw throttled(retryAfter);
    }
    await next();
  });
