import { and, eq, exists, isNull } from "drizzle-orm";
import type { Db, Principal } from "../env";
import { apiKeys, consoleSessions } from "../db/schema";
import { type PageWindow, mapPage, newestFirstPage } from "../db/paginate";
import { fieldError, notFound } from "../lib/errors";
import { apiKeyValues } from "./accounts";
import { forgetApiKey, forgetSession } from "./key-cache";
import { apiKeyRecord } from "./records/api-keys";

/** A page of the user's own keys, newest first (never their secrets). */
export async function listApiKeys(db: Db, userId: string, window: PageWindow) {
  const mine = eq(apiKeys.userId, userId);
  const page = await newestFirstPage(db, apiKeys, mine, window);
  return mapPage(page, apiKeyRecord);
}

/** What a new key is created with: the request's key, or its console session (signed in with a key or not). */
export type KeyCreator = Pick<Principal, "userId" | "apiKeyId" | "session">;

/**
 * A new key of the user acting in `organizationId` by default; the key itself is returned only here. A request made
 * with a key that expires (or a session signed in with one) creates keys that expire no later (400 otherwise): a key
 * with an expiry could otherwise outlive itself through a key it created.
 */
export async function createApiKey(
  db: Db,
  creator: KeyCreator,
  organizationId: string | null,
  name: string,
  expiresAt: number | null,
) {
  const limit = await creatorExpiry(db, creator);
  if (limit !== null && (expiresAt === null || expiresAt > limit)) {
    throw fieldError(
      "expiresAt",
      `Must be no later than ${new Date(limit).toISOString()}, when the API key this request is made with expires.`,
    );
  }
  const { key, values } = await apiKeyValues(creator.userId, organizationId, name, undefined, expiresAt);
  const [row] = await db.insert(apiKeys).values(values).returning();
  return { ...apiKeyRecord(row), key };
}

/** When the key the request is made with expires (a session's: the key it was signed in with); null for never. */
async function creatorExpiry(db: Db, { apiKeyId, session }: KeyCreator): Promise<number | null> {
  if (session) return session.keyExpiresAt;
  if (!apiKeyId) return null;
  const [key] = await db.select({ expiresAt: apiKeys.expiresAt }).from(apiKeys).where(eq(apiKeys.id, apiKeyId));
  return key?.expiresAt ?? null;
}

/**
 * Revokes one of the user's live keys at once (404 for another's, an unknown or an already revoked key), and the
 * console sessions signed in with it: a key is revoked when it may be known to someone else.
 */
export async function revokeApiKey(db: Db, userId: string, id: string) {
  const now = Date.now();
  const live = and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt));
  // The sessions first, while the key still reads live (one batch, one transaction): a revoked key's 404 ends none.
  const [sessions, revoked] = await db.batch([
    db
      .update(consoleSessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(consoleSessions.apiKeyId, id),
          isNull(consoleSessions.revokedAt),
          exists(db.select({ id: apiKeys.id }).from(apiKeys).where(live)),
        ),
      )
      .returning({ id: consoleSessions.id }),
    db.update(apiKeys).set({ revokedAt: now }).where(live).returning({ id: apiKeys.id }),
  ]);
  if (!revoked.length) throw notFound();
  forgetApiKey(id);
  for (const session of sessions) forgetSession(session.id);
}
