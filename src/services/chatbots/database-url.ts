import { eq, isNotNull } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { chatbots } from "../../db/schema";
import { encryptSecret } from "../../lib/crypto";
import { usableSecret } from "../../lib/placeholders";
import { maskConnectionString } from "../sql/connection";
import type { ChatbotColumns } from "./rules";

/**
 * An assistant's `databaseUrl` as it is stored: encrypted, with the masked form its record shows, as a SQL database's
 * (docs/decisions.md, "SQL databases and text-to-SQL"). Columns without `databaseUrl` are returned as they are.
 */
export async function sealedDatabaseUrl<T extends Pick<ChatbotColumns, "databaseUrl">>(
  env: Pick<Bindings, "ENCRYPTION_KEY">,
  columns: T,
) {
  if (columns.databaseUrl === undefined) return columns;
  const url = columns.databaseUrl;
  return {
    ...columns,
    databaseUrl: null,
    databaseUrlSealed: url ? await encryptSecret(url, env.ENCRYPTION_KEY) : null,
    databaseUrlMasked: url ? maskConnectionString(url, "****") : null,
  };
}

/**
 * Seals the connection strings written in clear before they were sealed, `limit` assistants a run; none while
 * ENCRYPTION_KEY is unset or the placeholder (the records show them masked meanwhile).
 */
export async function sealLegacyDatabaseUrls(env: Pick<Bindings, "ENCRYPTION_KEY">, db: Db, limit = 100) {
  if (!usableSecret("ENCRYPTION_KEY", env.ENCRYPTION_KEY)) return;
  const rows = await db
    .select({ id: chatbots.id, databaseUrl: chatbots.databaseUrl })
    .from(chatbots)
    .where(isNotNull(chatbots.databaseUrl))
    .limit(limit);
  for (const row of rows) {
    const sealed = await sealedDatabaseUrl(env, { databaseUrl: row.databaseUrl });
    await db.update(chatbots).set(sealed).where(eq(chatbots.id, row.id));
  }
}
