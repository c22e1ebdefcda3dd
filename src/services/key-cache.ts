import type { consoleSessions, users } from "../db/schema";
import { TtlCache } from "../lib/ttl-cache";

/** What authentication reads for a key, cached briefly per isolate. */
export interface KeyRecord {
  apiKeyId: string;
  organizationId: string | null;
  expiresAt: number | null;
  lastUsedAt: number | null;
  user: typeof users.$inferSelect;
}

/** What authentication reads for a console session cookie (src/services/console-sessions.ts). */
export interface SessionRecord {
  session: typeof consoleSessions.$inferSelect;
  user: typeof users.$inferSelect;
}

/**
 * Verified keys and console sessions are remembered for 2 seconds in the isolate that looked them
 * up, so a burst of requests with one credential costs one D1 read. Revoking one or changing its
 * user evicts it here at once; other isolates notice within TTL_MS (docs/decisions.md, "Per-isolate caches").
 */
const TTL_MS = 2_000;
const entries = new TtlCache<KeyRecord>(TTL_MS);
const sessions = new TtlCache<SessionRecord>(TTL_MS);

/** The key's record, remembered, else `load`'s (a key not found is not remembered). */
export const verifiedKey = (hash: string, load: () => Promise<KeyRecord | undefined>) => entries.remember(hash, load);
export const forgetApiKey = (apiKeyId: string) => entries.deleteWhere((record) => record.apiKeyId === apiKeyId);
/** The session's record by the hash of its cookie, remembered, else `load`'s. */
export const verifiedSession = (hash: string, load: () => Promise<SessionRecord | undefined>) =>
  sessions.remember(hash, load);
export const forgetSession = (sessionId: string) => sessions.deleteWhere((record) => record.session.id === sessionId);
export const forgetUser = (userId: string) => {
  entries.deleteWhere((record) => record.user.id === userId);
  sessions.deleteWhere((record) => record.user.id === userId);
};
