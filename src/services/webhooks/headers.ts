import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { webhooks } from "../../db/schema";
import { decryptSecret, encryptSecret } from "../../lib/crypto";
import { maskedHeaders } from "../../lib/masked-headers";
import { usableSecret } from "../../lib/placeholders";
import type { WebhookRow } from "./config";

type Headers = Record<string, string>;
type StoredHeaders = Pick<WebhookRow, "headers" | "headersSealed" | "headersMasked">;

/**
 * A webhook's custom headers as stored: the values are credentials (an api key, a bearer token), sealed as the secret
 * token is, with the masked form the record shows beside them; the clear column of before is emptied. No headers
 * need no key.
 */
export async function sealedHeaders(env: Pick<Bindings, "ENCRYPTION_KEY">, headers: Headers): Promise<StoredHeaders> {
  if (!Object.keys(headers).length) return { headers: null, headersSealed: null, headersMasked: null };
  return {
    headers: null,
    headersSealed: await encryptSecret(JSON.stringify(headers), env.ENCRYPTION_KEY),
    headersMasked: maskedHeaders(headers),
  };
}

/**
 * The headers to send or to keep: opened from their seal, else those a row written before sealing holds in clear
 * (until sealLegacyHeaders reaches it). Throws what decryptSecret throws when the seal cannot be opened (cannotOpen).
 */
export async function openedHeaders(row: StoredHeaders, env: Pick<Bindings, "ENCRYPTION_KEY">): Promise<Headers> {
  if (!row.headersSealed) return row.headers ?? {};
  return JSON.parse(await decryptSecret(row.headersSealed, env.ENCRYPTION_KEY)) as Headers;
}

/** The headers as the record shows them: names, values masked (a row not yet sealed is masked as it is read). */
export const shownHeaders = (row: StoredHeaders): Headers => row.headersMasked ?? maskedHeaders(row.headers ?? {});

/**
 * Seals the headers written in clear before they were sealed, `limit` webhooks a run (the housekeeping cron); none
 * while ENCRYPTION_KEY is unset or the placeholder (they are sent and shown masked as they are meanwhile). Each is
 * written only while its clear headers are as read, so a change saved in between is not overwritten.
 */
export async function sealLegacyHeaders(env: Pick<Bindings, "ENCRYPTION_KEY">, db: Db, limit = 100): Promise<void> {
  if (!usableSecret("ENCRYPTION_KEY", env.ENCRYPTION_KEY)) return;
  const rows = await db
    .select({ id: webhooks.id, headers: webhooks.headers, text: sql<string>`${webhooks.headers}` })
    .from(webhooks)
    .where(isNotNull(webhooks.headers))
    .limit(limit);
  for (const row of rows)
    await db
      .update(webhooks)
      // Not a change of the webhook: its `updatedAt` stays.
      .set({ ...(await sealedHeaders(env, row.headers ?? {})), updatedAt: sql`${webhooks.updatedAt}` })
      .where(and(eq(webhooks.id, row.id), sql`${webhooks.headers} = ${row.text}`));
}
