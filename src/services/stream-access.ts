import { eq } from "drizzle-orm";
import type { Bindings, Db, Principal } from "../env";
import { apiKeys, consoleSessions } from "../db/schema";
import type { ErrorCode } from "../lib/errors";
import { can, readAccess } from "./access";
import { sessionExpired } from "./console-sessions";
import type { Permission } from "./permissions";

/** Why a live stream ends: the `event: error` it closes with. */
export interface StreamEnd {
  code: Extract<ErrorCode, "not_authenticated" | "permission_denied">;
  detail: string;
}

/** How often a live stream asks again whether its reader may still read it (`INBOX_STREAM_RECHECK_MS`). */
export const RECHECK_MS = 30_000;
export const recheckMs = (env: Bindings) => Number(env.INBOX_STREAM_RECHECK_MS) || RECHECK_MS;

/**
 * Whether the caller who opened a stream may still read it, as stored now (no per-isolate cache):
 * the same API key or console session, live (not revoked, not expired), and a member of the
 * organization holding `permission`. A request is checked once; a stream stays open for hours, so
 * it asks again (docs/decisions.md, "Live inbox").
 */
export async function streamAccessLost(
  db: Db,
  principal: Principal,
  organizationId: string,
  permission: Permission,
  now = Date.now(),
): Promise<StreamEnd | null> {
  const [lost, access] = await Promise.all([
    credentialLost(db, principal, now),
    readAccess(db, principal.userId, organizationId),
  ]);
  if (lost) return { code: "not_authenticated", detail: lost };
  if (!access) return { code: "permission_denied", detail: "You are no longer a member of this organization." };
  if (!can(access, permission))
    return {
      code: "permission_denied",
      detail: `This stream requires the "${permission}" permission, which you no longer hold.`,
    };
  return null;
}

async function credentialLost(db: Db, principal: Principal, now: number): Promise<string | null> {
  if (principal.apiKeyId) {
    const [key] = await db
      .select({ revokedAt: apiKeys.revokedAt, expiresAt: apiKeys.expiresAt })
      .from(apiKeys)
      .where(eq(apiKeys.id, principal.apiKeyId));
    if (!key || key.revokedAt !== null) return "The API key was revoked.";
    if (key.expiresAt !== null && key.expiresAt <= now) return "The API key has expired.";
  } else if (principal.session) {
    const [session] = await db
      .select({
        revokedAt: consoleSessions.revokedAt,
        lastUsedAt: consoleSessions.lastUsedAt,
        keyExpiresAt: consoleSessions.keyExpiresAt,
      })
      .from(consoleSessions)
      .where(eq(consoleSessions.id, principal.session.id));
    if (!session || session.revokedAt !== null) return "The console session was revoked; sign in again.";
    if (sessionExpired(session, now)) return "The console session has expired; sign in again.";
  }
  return null;
}
