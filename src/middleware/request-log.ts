import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";

/**
 * One structured JSON line per request, for Workers Logs (wrangler.toml `[observability]`): request
 * id, method, route (the matched pattern, so ids stay out), status, duration, the organization the
 * request acted in when one is known, and for errors their code (4xx) or message and stack (5xx).
 * Never headers, query strings, bodies or keys; error texts are scrubbed of anything key-shaped.
 * A streamed response is logged when its head is sent (`streamed: true`).
 */
export const requestLog = (now: () => number = Date.now) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const started = now();
    await next();
    const status = c.res.status;
    const line: Record<string, unknown> = {
      level: status >= 500 ? "error" : status >= 400 ? "warn" : "info",
      message: "request",
      requestId: c.get("requestId"),
      method: c.req.method,
      route: routeOf(c),
      status,
      durationMs: now() - started,
      organizationId: c.get("organizationId") ?? c.get("principal")?.defaultOrganizationId ?? null,
    };
    if (c.res.headers.get("Content-Type")?.startsWith("text/event-stream")) line.streamed = true;
    const err = c.error;
    if (err instanceof ApiError) line.code = err.code;
    else if (err && status >= 500) line.error = { message: scrub(String(err)), stack: scrub(err.stack ?? "") };
    // The console method carries the line's level (Workers Logs files it under that level); under
    // `wrangler dev`, `console.log` lines are also source-mapped one by one (docs/decisions.md,
    // "One conversation again").
    (status >= 500 ? console.error : status >= 400 ? console.warn : console.info)(JSON.stringify(line));
  });

/** The endpoint's pattern (`/api/v1/knowledge-bases/:id/`), even when a middleware answered first (401, 429); null when
 * no endpoint matched. */
function routeOf(c: Context<AppEnv>): string | null {
  return (
    matchedRoutes(c)
      .filter((r) => r.method !== "ALL")
      .at(-1)?.path ?? null
  );
}

/** An error text without API keys, bearer tokens or URL passwords, and not too long for one line. */
export function scrub(text: string): string {
  return text
    .replace(/\b(?:ak|sk)[_-][A-Za-z0-9_-]{8,}/g, "[redacted]")
    .replace(/\b(Api-Key|Bearer|Basic)\s+[^\s"']+/gi, "$1 [redacted]")
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi, "$1[redacted]@")
    .slice(0, 4000);
}
