import type { apiKeys } from "../../db/schema";
import { ms } from "../../lib/time";

export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  organization: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export const apiKeyRecord = (k: typeof apiKeys.$inferSelect): ApiKeyRecord => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  organization: k.organizationId,
  expiresAt: ms(k.expiresAt),
  revokedAt: ms(k.revokedAt),
  lastUsedAt: ms(k.lastUsedAt),
  createdAt: ms(k.createdAt)!,
});
