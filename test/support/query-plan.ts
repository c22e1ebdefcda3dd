// SQLite's plan of a query a service builds and has not run: the test reads which index it would walk.
import type { Db } from "../../src/env";
import { client } from "../../src/db/prepared";

interface Query {
  toSQL(): { sql: string; params: unknown[] };
}

/** `EXPLAIN QUERY PLAN` of `query` in `db`, one line a step. */
export async function queryPlan(db: Db, query: Query) {
  const { sql, params } = query.toSQL();
  const rows = await client(db)
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return rows.results.map((r) => r.detail).join("\n");
}
