import type { users } from "../db/schema";

/** What authentication reads for a key, cached briefly per isolate. */
export interface KeyRecord {
  apiKeyId: string;
  organizationId: string | null;
  expiresAt: number | null;
  lastUsedAt: number | null;
  user: typeof users.$inferSelect;
}

/**
 * Verified keys are remembered for 2 seconds in the isolate that looked them up, so a burst of
 * requests with one key costs one D1 read. Revoking a key or changing its user evicts it here at
 * once; other isolates notice within TTL_MS (docs/decisions.md, "API key revocation").
 */
export const TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;
const entries = new Map<string, { record: KeyRecord; at: number }>();

export function cachedKey(hash: string, now = Date.now()): KeyRecord | undefined {
  const hit = entries.get(hash);
  if (hit && now - hit.at < TTL_MS) return hit.record;
  if (hit) entries.delete(hash);
  return undefined;
}

export function rememberKey(hash: string, record: KeyRecord, now = Date.now()) {
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(hash, { record, at: now });
}

export function forgetApiKey(apiKeyId: string) {
  for (const [hash, { record }] of entries) if (record.apiKeyId === apiKeyId) entries.delete(hash);
}

export function forgetUser(userId: string) {
  for (const [hash, { record }] of entries) if (record.user.id === userId) entries.delete(hash);
}
