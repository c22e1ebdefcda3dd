// Moving an organization's data plane from `DB` to its shard while it is written (docs/decisions.md, "Moving an
// organization's data plane"; docs/scale.md §5 step 4, "The worklist" 7, step 8), a step each run of the
// every-minute cron, the directory row (`organization_shards.data_plane`, `cursor`, `since`) saying how far:
// 1. startDataPlaneMove sets 'moving': from then on `DB`'s triggers (migration 0043) log every row of the
//    organization that changes (`data_plane_changes`); the statements keep running in `DB`;
// 2. once every isolate has seen that (MOVE_GRACE_MS), each table's rows are copied in pages of rowid order, parents
//    before children, upserted by key; a row whose parent is not there yet is newer than the move, so logged;
// 3. the log is replayed in pages: each logged key's row as `DB` has it now, upserted, or deleted when it is gone;
// 4. when a run empties the log, 'fenced': `DB` refuses the conversation pipeline's writes (they wait:
//    ./plane-router.ts) and drops any other's; the log is replayed to its end, each table's rows counted on both
//    sides, and equal, the directory says 'shard' (reads and writes go there); unequal, the copy starts over;
// 5. once every isolate has seen the switch (MOVE_GRACE_MS again), the rows left in `DB` are deleted in
//    pages, children first.
// Conversation objects and R2 segments do not move: they are addressed by id and key, not by database.
import { DATA_TABLES } from "../../db/planes";
import type { Bindings } from "../../env";
import { rollBackTo } from "../statistics/rollup";
import { organizationPlacement, setDirectory, shardDb } from ".";
import { MOVE_GRACE_MS } from "./move";

/** What stays where it is: search terms are in the shard already, the FTS index is the shard's own triggers' work, and
 * the rest is each database's own bookkeeping. */
const STAYS = new Set<string>([
  "conversation_terms",
  "conversation_terms_pending",
  "conversation_terms_cursors",
  "contacts_fts",
  "forgotten_conversations",
  "usage_rollup",
  "mover_batches",
]);
/** The tables that move, in DATA_TABLES' order: parents before children, so a row's key to its parent holds in the
 * shard at every step. */
export const MOVED_TABLES = DATA_TABLES.filter((t) => !STAYS.has(t));

/** Which rows of a table are the organization's (?1): by their own column, or by their contact's. */
const owned = (table: string) =>
  table === "contact_inboxes" || table === "contact_tags"
    ? "contact_id IN (SELECT id FROM contacts WHERE organization_id = ?1)"
    : "organization_id = ?1";

interface Shape {
  columns: string[];
  key: string[];
  /** Keys to other moved tables, as the shard declares them (it has none to the control plane). */
  parents: { column: string; table: string; to: string }[];
}
const shapes = new Map<string, Shape>();

/** A table's columns and key (the same in `DB` and the shards: test/db/shard-schema.test.ts) and its parents. */
async function shapeOf(shard: D1Database, table: string): Promise<Shape> {
  const known = shapes.get(table);
  if (known) return known;
  const [columns, parents] = await shard.batch<Record<string, string | number>>([
    shard.prepare("SELECT name, pk FROM pragma_table_info(?1) ORDER BY cid").bind(table),
    shard.prepare('SELECT "from", "table", "to" FROM pragma_foreign_key_list(?1)').bind(table),
  ]);
  const shape: Shape = {
    columns: columns.results.map((c) => String(c.name)),
    key: columns.results
      .filter((c) => Number(c.pk) > 0)
      .sort((a, b) => Number(a.pk) - Number(b.pk))
      .map((c) => String(c.name)),
    parents: parents.results.map((p) => ({ column: String(p.from), table: String(p.table), to: String(p.to) })),
  };
  shapes.set(table, shape);
  return shape;
}

/** Rows (a JSON array of objects, ?1) upserted by key; `copy` leaves out a row whose parent the shard has not yet
 * or that collides with another on a unique key (both newer than the move: the log brings them). */
function upsert(table: string, { columns, key, parents }: Shape, copy: boolean) {
  const values = columns.map((c) => `value ->> '${c}'`).join(", ");
  const present = copy
    ? parents.map(
        (p) =>
          `(value ->> '${p.column}' IS NULL OR EXISTS (SELECT 1 FROM ${p.table} WHERE ${p.to} = ` +
          `value ->> '${p.column}'))`,
      )
    : [];
  const rest = columns.filter((c) => !key.includes(c));
  const update = rest.length ? `DO UPDATE SET ${rest.map((c) => `${c} = excluded.${c}`).join(", ")}` : "DO NOTHING";
  return (
    `INSERT ${copy ? "OR IGNORE " : ""}INTO ${table} (${columns.join(", ")}) SELECT ${values} FROM json_each(?1) ` +
    `WHERE ${present.join(" AND ") || "true"} ON CONFLICT (${key.join(", ")}) ${update}`
  );
}

/** `WHERE` of the rows whose keys are in ?1 (a JSON array of key arrays). */
const keyed = ({ key }: Shape) =>
  key.length === 1
    ? `${key[0]} IN (SELECT value ->> 0 FROM json_each(?1))`
    : `(${key.join(", ")}) IN (SELECT ${key.map((_, i) => `value ->> ${i}`).join(", ")} FROM json_each(?1))`;

/** The mover's batch on the shard: named in `mover_batches` while it runs, so the triggers counting a new
 * conversation or opening its stretch stand aside (the copied figures and stretches say so already). */
function asMover(shard: D1Database, organizationId: string, statements: D1PreparedStatement[]) {
  return shard.batch([
    shard.prepare("INSERT INTO mover_batches (organization_id) VALUES (?1)").bind(organizationId),
    ...statements,
    shard.prepare("DELETE FROM mover_batches WHERE organization_id = ?1").bind(organizationId),
  ]);
}

/** Splits rows into JSON arrays of at most ~1 MB each (a bound value's limit is 2 MB). */
function chunks(rows: unknown[]): string[] {
  const out: string[] = [];
  let part: string[] = [];
  let size = 0;
  for (const row of rows) {
    const json = JSON.stringify(row);
    if (part.length && size + json.length > 1_000_000) {
      out.push(`[${part.join(",")}]`);
      part = [];
      size = 0;
    }
    part.push(json);
    size += json.length + 1;
  }
  if (part.length) out.push(`[${part.join(",")}]`);
  return out;
}

type Cursor = { step: "copy"; table: number; after: number } | { step: "replay" } | { step: "clean"; table: number };
interface Move {
  organization_id: string;
  shard: string;
  data_plane: "moving" | "fenced" | "shard";
  cursor: string | null;
  since: number;
}

/**
 * Starts moving an organization's data plane from `DB` to its shard; false when it is not in `DB` (moved or being
 * moved) or its search terms are moving between shards. The entry point of an operator (scripts/move-organization.mjs
 * `--data-plane` runs the same UPDATE on a deployment's `DB`).
 */
export async function startDataPlaneMove(env: Bindings, organizationId: string, now = Date.now()) {
  await organizationPlacement(env, organizationId);
  const { meta } = await setDirectory(
    env,
    organizationId,
    "data_plane = 'moving', cursor = NULL, since = ?2",
    [now],
    "AND data_plane = 'db' AND moving_to IS NULL AND moving_from IS NULL",
  );
  return meta.changes > 0;
}

/** Advances every data-plane move under way by a step (see above): `pages` of `size` rows copied, replayed or
 * deleted a run. */
export async function advanceDataPlaneMoves(env: Bindings, now = Date.now(), { pages = 10, size = 200 } = {}) {
  const { results } = await env.DB.prepare(
    "SELECT organization_id, shard, data_plane, cursor, since FROM organization_shards " +
      "WHERE data_plane IN ('moving', 'fenced') OR (data_plane = 'shard' AND cursor IS NOT NULL " +
      "AND moving_to IS NULL AND moving_from IS NULL)",
  ).all<Move>();
  for (const move of results) {
    const shard = shardDb(env, move.shard);
    if (move.data_plane === "fenced") await finish(env, move, shard, now, size);
    else if (now - move.since < MOVE_GRACE_MS) continue;
    else if (move.data_plane === "shard") await clean(env, move, JSON.parse(move.cursor!), pages, size);
    else await advance(env, move, shard, now, pages, size);
  }
}

async function advance(env: Bindings, move: Move, shard: D1Database, now: number, pages: number, size: number) {
  let cursor: Cursor = move.cursor ? JSON.parse(move.cursor) : { step: "copy", table: 0, after: 0 };
  for (let page = 0; page < pages; page++) {
    if (cursor.step === "copy") {
      cursor = await copyPage(env, move.organization_id, shard, cursor, size);
      await setCursor(env, move.organization_id, cursor);
    } else if (!(await replayPage(env, move.organization_id, shard, size))) {
      return finish(env, move, shard, now, size);
    }
  }
}

/** Copies a page of the cursor's table; the cursor after it (the next table's, or the replay once all are). */
async function copyPage(
  env: Bindings,
  organizationId: string,
  shard: D1Database,
  cursor: Extract<Cursor, { step: "copy" }>,
  size: number,
): Promise<Cursor> {
  const table = MOVED_TABLES[cursor.table];
  const shape = await shapeOf(shard, table);
  const { results } = await env.DB.prepare(
    `SELECT rowid AS _rowid, ${shape.columns.join(", ")} FROM ${table} WHERE ${owned(table)} AND rowid > ?2 ` +
      "ORDER BY rowid LIMIT ?3",
  )
    .bind(organizationId, cursor.after, size)
    .all<Record<string, unknown>>();
  if (results.length) {
    const sql = upsert(table, shape, true);
    await asMover(
      shard,
      organizationId,
      chunks(results).map((json) => shard.prepare(sql).bind(json)),
    );
  }
  if (results.length === size) return { step: "copy", table: cursor.table, after: Number(results[size - 1]._rowid) };
  return cursor.table + 1 < MOVED_TABLES.length
    ? { step: "copy", table: cursor.table + 1, after: 0 }
    : { step: "replay" };
}

/**
 * Replays a page of the log: each logged row as `DB` has it now, upserted in the shard, or deleted there when `DB`
 * has it no more (children's deletes first, parents' upserts first). False when the log was empty.
 */
async function replayPage(env: Bindings, organizationId: string, shard: D1Database, size: number) {
  const { results } = await env.DB.prepare(
    "SELECT id, table_name, key FROM data_plane_changes WHERE organization_id = ?1 ORDER BY id LIMIT ?2",
  )
    .bind(organizationId, size)
    .all<{ id: number; table_name: string; key: string }>();
  if (!results.length) return false;
  const keys = new Map<string, Map<string, unknown[]>>();
  for (const { table_name, key } of results) {
    if (!keys.has(table_name)) keys.set(table_name, new Map());
    const parsed = JSON.parse(key);
    // Compared with a row's key as JSON.stringify writes it below.
    keys.get(table_name)!.set(JSON.stringify(parsed), parsed);
  }
  const tables = MOVED_TABLES.filter((t) => keys.has(t));
  const tableShapes = await Promise.all(tables.map((t) => shapeOf(shard, t)));
  const current = await env.DB.batch<Record<string, unknown>>(
    tables.map((t, i) =>
      env.DB.prepare(`SELECT ${tableShapes[i].columns.join(", ")} FROM ${t} WHERE ${keyed(tableShapes[i])}`).bind(
        JSON.stringify([...keys.get(t)!.values()]),
      ),
    ),
  );
  const deletes: D1PreparedStatement[] = [];
  const writes: D1PreparedStatement[] = [];
  tables.forEach((table, i) => {
    const shape = tableShapes[i];
    const rows = current[i].results;
    const found = new Set(rows.map((row) => JSON.stringify(shape.key.map((k) => row[k]))));
    const gone = [...keys.get(table)!.keys()].filter((key) => !found.has(key));
    if (gone.length)
      deletes.unshift(shard.prepare(`DELETE FROM ${table} WHERE ${keyed(shape)}`).bind(`[${gone.join(",")}]`));
    const sql = upsert(table, shape, false);
    for (const json of chunks(rows)) writes.push(shard.prepare(sql).bind(json));
  });
  await asMover(shard, organizationId, [...deletes, ...writes]);
  await env.DB.prepare("DELETE FROM data_plane_changes WHERE organization_id = ?1 AND id <= ?2")
    .bind(organizationId, results[results.length - 1].id)
    .run();
  return true;
}

/**
 * The switch (4 above): fenced, the log replayed to its end, the tables counted, then the directory says 'shard' and
 * the cleaning starts; or, counts unequal, back to 'moving' with the copy started over.
 */
async function finish(env: Bindings, move: Move, shard: D1Database, now: number, size: number) {
  const org = move.organization_id;
  await setDirectory(env, org, "data_plane = 'fenced'", [], "AND data_plane = 'moving'");
  while (await replayPage(env, org, shard, size));
  const count = (d1: D1Database) =>
    d1.batch<{ n: number }>(
      MOVED_TABLES.map((t) => d1.prepare(`SELECT count(*) AS n FROM ${t} WHERE ${owned(t)}`).bind(org)),
    );
  const [ours, theirs] = await Promise.all([count(env.DB), count(shard)]);
  // Fewer rows in the shard: some were missed, and the copy starts over. More: rows deleted in `DB` since the fence by
  // housekeeping or a control plane's cascade (not logged then), which the shard's own housekeeping and purges redo.
  const counts = MOVED_TABLES.map((t, i) => ({ t, ours: ours[i].results[0].n, theirs: theirs[i].results[0].n }));
  const differ = (which: (c: (typeof counts)[number]) => boolean) =>
    counts.filter(which).map((c) => `${c.t}: ${c.ours} in DB, ${c.theirs} in ${move.shard}`);
  const missing = differ((c) => c.theirs < c.ours);
  const extra = differ((c) => c.theirs > c.ours);
  if (missing.length || extra.length)
    console.error(
      JSON.stringify({
        level: missing.length ? "error" : "warn",
        message: `data plane move: counts differ after the replay${missing.length ? "; copying again" : ""}`,
        organizationId: org,
        counts: [...missing, ...extra],
      }),
    );
  if (missing.length) {
    await setDirectory(env, org, "data_plane = 'moving', cursor = NULL, since = ?2", [now]);
    return;
  }
  // The shard's daily rollups of days `DB` had not rolled up for the organization (or did once fenced: dropped) lack
  // its copied hour rows; the shard rolls them up again, and answers read the hour rows of those days meanwhile. `DB`
  // rolls up whole days in order, so those are the days after the last it has daily rows of.
  const notRolledUp = await env.DB.prepare(
    "SELECT min(hour) AS hour FROM usage_hourly WHERE organization_id = ?1 AND hour >= coalesce((SELECT max(day) " +
      "FROM usage_daily_members WHERE organization_id = ?1) + 86400000, 0)",
  )
    .bind(org)
    .first<number | null>("hour");
  if (notRolledUp !== null) await rollBackTo(shard, notRolledUp);
  // The rows in `DB` stay until every isolate has seen the switch (a read there meanwhile is of the rows as they were).
  const cleaning: Cursor = { step: "clean", table: MOVED_TABLES.length - 1 };
  await setDirectory(env, org, "data_plane = 'shard', cursor = ?2, since = ?3", [JSON.stringify(cleaning), now]);
}

/** Deletes the rows left in `DB`, children first (nothing is logged once fenced: the log is empty). */
async function clean(env: Bindings, move: Move, cursor: Cursor, pages: number, size: number) {
  if (cursor.step !== "clean") return;
  const org = move.organization_id;
  let table = cursor.table;
  for (let page = 0; page < pages && table >= 0; page++) {
    const name = MOVED_TABLES[table];
    const { meta } = await env.DB.prepare(
      `DELETE FROM ${name} WHERE rowid IN (SELECT rowid FROM ${name} WHERE ${owned(name)} LIMIT ?2)`,
    )
      .bind(org, size * 10)
      .run();
    if (meta.changes < size * 10) table--;
  }
  await setCursor(env, org, table >= 0 ? { step: "clean", table } : null);
}

const setCursor = (env: Bindings, organizationId: string, cursor: Cursor | null) =>
  setDirectory(env, organizationId, "cursor = ?2", [cursor && JSON.stringify(cursor)]);
