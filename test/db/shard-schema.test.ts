// An organization shard holds the data plane as `DB` has it (migrations-shards/0001_data_plane.sql): the same columns,
// indexes, triggers and keys, but the keys to the control plane, which a shard does not hold. A migration changing a
// data table in `DB` needs its twin in migrations-shards/ until `DB` no longer holds them (docs/scale.md §5 step 4).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DATA_TABLES } from "../../src/db/planes";
import { SHARDS, shardDb } from "../../src/services/shards";

type Row = Record<string, unknown>;

async function shape(d1: D1Database, table: string) {
  const rows = async (sql: string) => (await d1.prepare(sql).bind(table).all<Row>()).results;
  const squeeze = (sql: unknown) => String(sql).replace(/\s+/g, " ").trim();
  return {
    columns: await rows('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?1) ORDER BY cid'),
    // Keys within the data plane only: those to the control plane are the ones a shard leaves out.
    keys: (
      await rows('SELECT "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?1) ORDER BY id, seq')
    ).filter((k) => (DATA_TABLES as readonly string[]).includes(String(k.table))),
    // Indexes and triggers by their SQL; the table's own SQL differs by the keys it leaves out, and `DB`'s triggers
    // logging the rows of an organization whose data plane moves to its shard (migration 0043) are `DB`'s alone.
    objects: (
      await rows(
        "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ?1 AND type IN ('index', 'trigger') " +
          "AND sql IS NOT NULL AND name NOT LIKE 'moving\\_%' ESCAPE '\\' ORDER BY type, name",
      )
    ).map((o) => ({ ...o, sql: squeeze(o.sql) })),
  };
}

describe("an organization shard's schema", () => {
  it("holds every data-plane table as DB does, less the keys to the control plane", async () => {
    for (const name of SHARDS) {
      const shard = shardDb(env, name);
      for (const table of DATA_TABLES) {
        const [ours, theirs] = await Promise.all([shape(env.DB, table), shape(shard, table)]);
        expect(theirs.columns.length, `${name}.${table}`).toBeGreaterThan(0);
        expect(theirs, `${name}.${table}`).toEqual(ours);
      }
    }
  });

  it("holds no key to a table it does not have", async () => {
    const shard = shardDb(env, SHARDS[0]);
    for (const table of DATA_TABLES) {
      const { results } = await shard
        .prepare('SELECT "table" FROM pragma_foreign_key_list(?1)')
        .bind(table)
        .all<{ table: string }>();
      for (const key of results) expect(DATA_TABLES, `${table} -> ${key.table}`).toContain(key.table);
    }
  });
});
