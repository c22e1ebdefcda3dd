import { eq } from "drizzle-orm";
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { Context } from "hono";
import type { AppEnv, Principal } from "../env";
import { apiKeys, consoleSessions } from "../db/schema";
import { ApiError, forbidden, unauthenticated } from "../lib/errors";
import { apiKeyRecordFor, sessionRecordFor } from "../services/credentials";
import {
  SESSION_COOKIE,
  SESSION_TOUCH_MS,
  clearedSessionCookie,
  sessionCookie,
  sessionExpired,
} from "../services/console-sessions";

const LAST_USED_RESOLUTION_MS = 60_000;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** `Authorization: Api-Key <key>`; `Bearer <key>` is accepted too, for OpenAI-compatible clients. */
function readKey(header: string | undefined): string | null {
  const match = header?.match(/^(?:Api-Key|Bearer)\s+(\S+)\s*$/i);
  return match ? match[1] : null;
}

/** The principal a request acts as: its user, and the API key or console session it came with. */
const principalOf = (
  user: Principal["user"],
  via: Pick<Principal, "apiKeyId" | "session" | "defaultOrganizationId">,
): Principal => ({ userId: user.id, email: user.email, name: user.name, isStaff: user.isStaff, user, ...via });

/** Writes a key's or a session's last use after the response (its row's `lastUsedAt`), so no request waits on it. */
function recordUse(c: Context<AppEnv>, table: typeof apiKeys | typeof consoleSessions, id: string, now: number) {
  c.executionCtx.waitUntil(
    c.var.db
      .update(table)
      .set({ lastUsedAt: now })
      .where(eq(table.id, id))
      .then(() => undefined),
  );
}

/**
 * Resolves the caller (the principal) on every route except the public ones: an API key in
 * `Authorization`, else the operator console's session cookie (CONTRACT section 16) where `consoleSession` allows it.
 * Authorization is not decided here: each handler names the permission it needs.
 */
export const authenticate = (
  isPublic: (path: string, method: string) => boolean,
  { consoleSession = true }: { consoleSession?: boolean } = {},
) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (isPublic(c.req.path, c.req.method)) return next();
    const header = c.req.header("Authorization");
    const key = readKey(header);
    if (!key) {
      const token = header ? undefined : getCookie(c, SESSION_COOKIE);
      if (token && !consoleSession) throw unauthenticated("This endpoint takes an API key (`Api-Key <key>`).");
      if (token) return withSession(c, token, next);
      throw unauthenticated(header ? "Malformed Authorization header; expected `Api-Key <key>`." : undefined);
    }
    const db = c.var.db;
    const now = Date.now();
    const row = await apiKeyRecordFor(c.env, db, key);
    if (!row) throw unauthenticated("Invalid API key.");
    if (row.expiresAt !== null && row.expiresAt <= now) throw unauthenticated("API key has expired.");
    c.set(
      "principal",
      principalOf(row.user, { apiKeyId: row.apiKeyId, session: null, defaultOrganizationId: row.organizationId }),
    );
    if (!row.lastUsedAt || now - row.lastUsedAt > LAST_USED_RESOLUTION_MS) {
      row.lastUsedAt = now;
      recordUse(c, apiKeys, row.apiKeyId, now);
    }
    await next();
  });

/**
 * The console's cookie: the session's user, with the same permissions as their API key. A
 * cookie-authenticated write must come from this origin (`Origin`), so no other site can make a
 * signed-in browser change anything. Each use slides the 12-hour idle expiry (written once a minute).
 */
async function withSession(c: Context<AppEnv>, token: string, next: () => Promise<void>) {
  const db = c.var.db;
  const now = Date.now();
  const row = await sessionRecordFor(db, token);
  const cleared = { "Set-Cookie": clearedSessionCookie(c.req.url) };
  if (!row)
    throw new ApiError(401, "not_authenticated", "Console session is not valid; sign in again.", undefined, cleared);
  if (sessionExpired(row.session, now))
    throw new ApiError(401, "not_authenticated", "Console session has expired; sign in again.", undefined, cleared);
  if (!SAFE_METHODS.has(c.req.method) && c.req.header("Origin") !== new URL(c.req.url).origin) {
    throw forbidden(
      "A request with the console's session cookie that changes data must come from the console's own origin " +
        "(Origin header).",
    );
  }
  const { user, session } = row;
  c.set("principal", principalOf(user, { apiKeyId: null, session, defaultOrganizationId: session.organizationId }));
  const touch = now - session.lastUsedAt > SESSION_TOUCH_MS;
  if (touch) {
    session.lastUsedAt = now;
    recordUse(c, consoleSessions, session.id, now);
  }
  await next();
  // The cookie's Max-Age slides with the session, unless the handler set the cookie itself (sign-out).
  if (touch && !c.res.headers.has("Set-Cookie")) {
    const cookie = sessionCookie(c.req.url, token);
    try {
      c.res.headers.append("Set-Cookie", cookie);
    } catch {
      // A response passed through from fetch() has immutable headers: answer with a copy.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.append("Set-Cookie", cookie);
    }
  }
}
