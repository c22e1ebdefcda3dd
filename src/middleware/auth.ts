import { and, eq, isNull } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { AppEnv, Principal } from "../env";
import { apiKeys, users } from "../db/schema";
import { unauthenticated } from "../lib/errors";
import { sha256Hex } from "../lib/crypto";
import { bootstrapOwner } from "../services/accounts";
import { planSettings } from "../services/plans";
import { verifiedKey, type KeyRecord } from "../services/key-cache";
import type { Db } from "../env";

const LAST_USED_RESOLUTION_MS = 60_000;

/** `Authorization: Api-Key <key>`; `Bearer <key>` is accepted too, for OpenAI-compatible clients. */
function readKey(header: string | undefined): string | null {
  const match = header?.match(/^(?:Api-Key|Bearer)\s+(\S+)\s*$/i);
  return match ? match[1] : null;
}

/**
 * Resolves the API key to its user (the principal) on every route except the public ones.
 * Authorization is not decided here: each handler names the permission it needs.
 */
export const authenticate = (isPublic: (path: string, method: string) => boolean) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (isPublic(c.req.path, c.req.method)) return next();
    const header = c.req.header("Authorization");
    const key = readKey(header);
    if (!key) throw unauthenticated(header ? "Malformed Authorization header; expected `Api-Key <key>`." : undefined);
    const db = c.var.db;
    const hash = await sha256Hex(key);
    const now = Date.now();
    let row = await verifiedKey(hash, () => findKey(db, hash));
    if (!row && key === c.env.BOOTSTRAP_API_KEY && (await bootstrapOwner(db, key, c.env.BOOTSTRAP_EMAIL, planSettings(c.env).defaultPlan.id))) row = await findKey(db, hash);
    if (!row) throw unauthenticated("Invalid API key.");
    if (row.expiresAt !== null && row.expiresAt <= now) throw unauthenticated("API key has expired.");
    const { user } = row;
    const principal: Principal = {
      userId: user.id,
      email: user.email,
      name: user.name,
      isStaff: user.isStaff,
      user,
      apiKeyId: row.apiKeyId,
      defaultOrganizationId: row.organizationId,
    };
    c.set("principal", principal);
    if (!row.lastUsedAt || now - row.lastUsedAt > LAST_USED_RESOLUTION_MS) {
      row.lastUsedAt = now;
      c.executionCtx.waitUntil(db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.apiKeyId)).then(() => undefined));
    }
    await next();
  });

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
