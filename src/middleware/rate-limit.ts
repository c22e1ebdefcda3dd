import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";

const PERIOD_SECONDS = 60;

/** Per-API-key limit through the Workers rate-limiting binding (wrangler.toml `RATE_LIMITER`). */
export const rateLimit = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    const principal = c.get("principal");
    if (principal && c.env.RATE_LIMITER) {
      const { success } = await c.env.RATE_LIMITER.limit({ key: principal.apiKeyId });
      if (!success) {
        throw new ApiError(429, "throttled", "Request was throttled. Expected available in 60 seconds.", undefined, {
          "Retry-After": String(PERIOD_SECONDS),
        });
      }
    }
    await next();
  });
