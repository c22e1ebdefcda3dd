import { and, eq, isNull } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { apiKeys, consoleSessions, users } from "../db/schema";
import { hashPassword, sha256Hex, timingSafeEqual, verifyPassword } from "../lib/crypto";
import { bootstrapPassword, usableSecret } from "../lib/placeholders";
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
  // The example's placeholder key never works (lib/placeholders.ts).
  if (row || key !== usableSecret("BOOTSTRAP_API_KEY", env.BOOTSTRAP_API_KEY)) return row;
  return (await bootstrapOwner(db, key, env.BOOTSTRAP_EMAIL, planSettings(env).defaultPlan.id, bootstrapPassword(env)))
    ? findKey(db, hash)
    : undefined;
}

const bootstrapEmail = (env: Bindings) => (env.BOOTSTRAP_EMAIL || "admin@example.com").toLowerCase();

/** Whether `given` is BOOTSTRAP_PASSWORD, compared in constant time (as digests, so lengths do not show). */
async function isBootstrapPassword(env: Bindings, given: string): Promise<boolean> {
  const expected = bootstrapPassword(env);
  if (!expected) return false;
  const [a, b] = await Promise.all([sha256Hex(given), sha256Hex(expected)]);
  return timingSafeEqual(new TextEncoder().encode(a), new TextEncoder().encode(b));
}

/**
 * The user signing in to the console with e-mail and password, or undefined. The first
 * administrator signs in with BOOTSTRAP_EMAIL and BOOTSTRAP_PASSWORD: with no user yet this
 * bootstraps them (as the first request with BOOTSTRAP_API_KEY does), and a bootstrap administrator
 * created before the setting existed, who has no password, gets it as theirs (docs/decisions.md,
 * "The first administrator's sign-in"). Once they have a password of their own, only it works.
 */
export async function passwordSignIn(
  env: Bindings,
  db: Db,
  email: string,
  password: string,
): Promise<typeof users.$inferSelect | undefined> {
  const address = email.toLowerCase();
  const find = async () => (await db.select().from(users).where(eq(users.email, address)))[0];
  let user = await find();
  if (user?.passwordHash) return (await verifyPassword(password, user.passwordHash)) ? user : undefined;
  if (address !== bootstrapEmail(env) || !(await isBootstrapPassword(env, password))) return undefined;
  if (!user) {
    const key = usableSecret("BOOTSTRAP_API_KEY", env.BOOTSTRAP_API_KEY);
    if (!key || !(await bootstrapOwner(db, key, env.BOOTSTRAP_EMAIL, planSettings(env).defaultPlan.id, password)))
      return undefined;
    user = await find();
    // Bootstrapped by another request at the same moment, without the password: set below.
    if (user?.passwordHash) return user;
  }
  if (!user?.isStaff) return undefined;
  const passwordHash = await hashPassword(password);
  await db
    .update(users)
    .set({ passwordHash })
    .where(and(eq(users.id, user.id), isNull(users.passwordHash)));
  return { ...user, passwordHash };
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

/** The live (not revoked) console session whose cookie is `token`, with its user; idle expiry is the caller's to check.
 * */
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
