import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../env";
import { apiKeys } from "../db/schema";
import { type PageWindow, mapPage, newestFirstPage } from "../db/paginate";
import { notFound } from "../lib/errors";
import { apiKeyValues } from "./accounts";
import { forgetApiKey } from "./key-cache";
import { apiKeyRecord } from "./records/api-keys";

/** A page of the user's own keys, newest first (never their secrets). */
export async function listApiKeys(db: Db, userId: string, window: PageWindow) {
  const mine = eq(apiKeys.userId, userId);
  const page = await newestFirstPage(db, apiKeys, mine, window);
  return mapPage(page, apiKeyRecord);
}

/** A new key of the user acting in `organizationId` by default; the key itself is returned only here. */
export async function createApiKey(
  db: Db,
  userId: string,
  organizationId: string | null,
  name: string,
  expiresAt: number | null,
) {
  const { key, values } = await apiKeyValues(userId, organizationId, name, undefined, expiresAt);
  const [row] = await db.insert(apiKeys).values(values).returning();
  return { ...apiKeyRecord(row), key };
}

/** Revokes one of the user's live keys at once (404 for another's, an unknown or an already revoked key). */
export async function revokeApiKey(db: Db, userId: string, id: string) {
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: Date.now() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (!revoked.length) throw notFound();
  forgetApiKey(id);
}
