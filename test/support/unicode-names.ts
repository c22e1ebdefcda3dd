import { env } from "cloudflare:workers";
import { getTableName } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { expect } from "vitest";

/**
 * The check that a list's `query` finds a name in whichever Unicode form it was typed or stored (composed NFC or
 * decomposed NFD): a record created through the API (its name kept in NFC) is found by a query typed decomposed, as
 * a Mac's input gives it; a record whose name is then stored decomposed straight in `table`, as names were before
 * they were kept in NFC, is found by a query in either form. `search` answers the ids the list gives for a query.
 */
export async function expectQueryFindsEitherUnicodeForm(list: {
  create: (name: string) => Promise<{ id: string }>;
  table: SQLiteTable;
  search: (query: string) => Promise<string[]>;
}) {
  const typed = await list.create("Café Noir");
  const old = await list.create("Crème Brûlée");
  const stored = await env.DB.prepare(`UPDATE "${getTableName(list.table)}" SET name = ?1 WHERE id = ?2`)
    .bind("Crème Brûlée".normalize("NFD"), old.id)
    .run();
  expect(stored.meta.changes).toBe(1);
  expect(await list.search("café".normalize("NFD")), "typed decomposed").toEqual([typed.id]);
  expect(await list.search("crème".normalize("NFC")), "stored decomposed").toEqual([old.id]);
  expect(await list.search("crème".normalize("NFD"))).toEqual([old.id]);
}
