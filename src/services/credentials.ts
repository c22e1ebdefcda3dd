import { and, eq, isNull } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { apiKeys, consoleSessions, users } from "../db/schema";
import { sha256Hex } from "../lib/crypto";
import { bootstrapOwner } from "./accounts";
import { planSettings } from "./plans";
import { verifiedKey, verifiedSession, type KeyRecord, type SessionRecord } from "./key-cache";

/**
 * The live (not revoked) API key `key`, with its user. The bootstrap key creates its owner on first
 * use (CONTRACT section 3). Expiry is the caller's to check: it is checked on every request.
 */
export async function apiKeyRecordFor(env: Bindings, db: Db, key: string): Promise<KeyRecord | undefined> {
  const hash = await sha256Hex(key);
  const row = await verifiedKey(hash, () => findKey(db, hash));
  if (row || key !== env.BOOTSTRAP_API_KEY) return row;
  return (await bootstrapOwner(db, key, env.BOOTSTRAP_EMAIL, planSettings(env).defaultPlan.id)) ? findKey(db, hash) : undefined;
}

async function findKey(db: Db, hash: string): Promise<KeyRecord | undefined> {
  const [row] = await db
    .select({
      apiKeyId: apiKeys.id,
      organizationId: apiKeys.organizationId,
      expiresAt: apiKeys.expiresAt,
      lastUsedAt: apiKeys.lastUsedAt,
      user: users,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)));
  return row;
}

/** The live (not revoked) console session whose cookie is `token`, with its user; idle expiry is the caller's to check. */
export async function sessionRecordFor(db: Db, token: string): Promise<SessionRecord | undefined> {
  const hash = await sha256Hex(token);
  return verifiedSession(hash, async () => {
    const [row] = await db
      .select({ session: consoleSessions, user: users })
      .from(consoleSessions)
      .innerJoin(users, eq(users.id, consoleSessions.userId))
      .where(and(eq(consoleSessions.tokenHash, hash), isNull(consoleSessions.revokedAt)));
    return row;
  });
}
