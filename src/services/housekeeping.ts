import { and, isNotNull, lt, or } from "drizzle-orm";
import type { Bindings } from "../env";
import { getDb } from "../db";
import { apiKeys } from "../db/schema";
import { strandedDeliveries } from "./webhooks/delivery";
import { enqueueDeliveries } from "./webhooks/emit";

const KEEP_DEAD_KEYS_MS = 30 * 86_400_000;

/**
 * Cron: re-enqueues webhook deliveries the queue never heard of or whose consumer died, and removes
 * API keys that were revoked or expired more than 30 days ago.
 */
export async function runHousekeeping(env: Bindings, now = Date.now()) {
  const db = getDb(env.DB);
  await enqueueDeliveries(env, await strandedDeliveries(db, now));
  const before = now - KEEP_DEAD_KEYS_MS;
  await db.delete(apiKeys).where(or(and(isNotNull(apiKeys.revokedAt), lt(apiKeys.revokedAt, before)), and(isNotNull(apiKeys.expiresAt), lt(apiKeys.expiresAt, before))));
}
