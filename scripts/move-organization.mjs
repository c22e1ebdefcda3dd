#!/usr/bin/env node
// Starts moves of organizations' rows (an operator's command, with wrangler's own credentials; the every-minute cron
// does the rest), on a deployment's `DB` (--remote) or the local one (--local):
// - `node scripts/move-organization.mjs <organization id> --data-plane --remote`: its data plane from `DB` to its
//   shard, as startDataPlaneMove does (src/services/shards/data-plane-move.ts);
// - `node scripts/move-organization.mjs --data-planes <n> --remote`: the same for organizations still in `DB`, until
//   n are under way (each run of the cron advances every move under way: a few at a time keep its runs short); run
//   again until it says none is left;
// - `node scripts/move-organization.mjs <organization id> <CONVERSATIONS_n> --remote`: the search terms of an
//   organization whose data plane is in `DB` to another shard, as startMove does (src/services/shards/move.ts);
// - `node scripts/move-organization.mjs <organization id> --add-part <CONVERSATIONS_n> --remote`: a further part of
//   an organization's data plane (its shard nearly full): its conversations created from five minutes on go to that
//   shard, as addDataPart does (src/services/shards/parts.ts); no row moves.
// `wrangler d1 execute DB --remote --command "SELECT * FROM organization_shards WHERE data_plane IN ('moving',
// 'fenced') OR cursor IS NOT NULL"` shows the moves under way.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { d1Bindings } from "./d1-migrate.mjs";

const args = process.argv.slice(2);
const flags = args.filter((a) => a === "--remote" || a === "--local");
const [first, second, third] = args.filter((a) => !flags.includes(a));
const shards = d1Bindings(readFileSync("wrangler.toml", "utf8")).filter((b) => b !== "DB");
const isId = (s) => /^[0-9a-f-]{36}$/i.test(s ?? "");
const all = first === "--data-planes" && /^[1-9]\d*$/.test(second ?? "");
const addPart = second === "--add-part" && shards.includes(third);
if (
  flags.length !== 1 ||
  !(all || (isId(first) && (second === "--data-plane" || addPart || shards.includes(second))))
) {
  console.error(
    "usage: move-organization.mjs <organization id> --data-plane --remote|--local\n" +
      "       move-organization.mjs --data-planes <n> --remote|--local\n" +
      `       move-organization.mjs <organization id> --add-part <${shards.join("|")}> --remote|--local\n` +
      `       move-organization.mjs <organization id> <${shards.join("|")}> --remote|--local`,
  );
  process.exit(2);
}
const now = Date.now();

/** `wrangler d1 execute DB` with `sql`: its result sets (--json), or its exit status when it failed. */
function execute(sql) {
  const run = spawnSync("wrangler", ["d1", "execute", "DB", ...flags, "--json", "--command", sql], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (run.status !== 0) {
    process.stdout.write(run.stdout ?? "");
    process.exit(run.status ?? 1);
  }
  return JSON.parse(run.stdout).map((set) => set.results);
}

/** The shard an organization is placed on: FNV-1a of its id over the shards in wrangler.toml's order, as
 * src/services/shards/index.ts `placement` (for an organization with no directory row yet). */
function placement(id) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return shards[(hash >>> 0) % shards.length];
}

/** Statements starting the data plane's move of each of `ids` (placed first if it has no directory row yet). */
const startDataPlanes = (ids) =>
  ids
    .map(
      (id) =>
        "INSERT INTO organization_shards (organization_id, shard, since) " +
        `SELECT '${id}', '${placement(id)}', ${now} WHERE EXISTS (SELECT 1 FROM organizations WHERE id = '${id}') ` +
        "ON CONFLICT (organization_id) DO NOTHING; " +
        `UPDATE organization_shards SET data_plane = 'moving', cursor = NULL, since = ${now} ` +
        `WHERE organization_id = '${id}' AND data_plane = 'db' AND moving_to IS NULL AND moving_from IS NULL ` +
        "RETURNING organization_id, shard, data_plane;",
    )
    .join(" ");

if (all) {
  const [left] = execute(
    "SELECT o.id, coalesce(s.data_plane, 'db') AS plane, " +
      "s.moving_to IS NOT NULL OR s.moving_from IS NOT NULL AS terms " +
      "FROM organizations o LEFT JOIN organization_shards s ON s.organization_id = o.id " +
      "WHERE s.organization_id IS NULL OR s.data_plane <> 'shard' OR s.cursor IS NOT NULL ORDER BY o.created_at",
  );
  const underWay = left.filter((o) => o.plane !== "db").length;
  // An organization whose search terms are moving between shards waits for that move to end.
  const next = left.filter((o) => o.plane === "db" && !o.terms).slice(0, Math.max(0, Number(second) - underWay));
  const started = next.length ? execute(startDataPlanes(next.map((o) => o.id))).flat() : [];
  const waiting = left.filter((o) => o.plane === "db").length - started.length;
  console.log(
    `${started.length} started, ${underWay} already under way, ${waiting} still in DB` +
      (left.length ? "" : ": every organization's data plane is in its shard"),
  );
  process.exit(0);
}
const organization = first.toLowerCase();
if (second === "--data-plane") {
  const [, started] = execute(startDataPlanes([organization]));
  console.log(
    started.length
      ? `${organization}: moving to ${started[0].shard}`
      : `${organization}: not started (no such organization, or its data plane is in its shard or moving there)`,
  );
  process.exit(0);
}
if (addPart) {
  // addDataPart's checks in one statement: the data plane in its shard, the part after the last one, and another shard
  // than the one taking the newest conversations. Five minutes ahead: past every isolate's memory of the directory.
  const from = now + 5 * 60_000;
  const parts = `SELECT * FROM organization_parts WHERE organization_id = s.organization_id`;
  const [added] = execute(
    "INSERT INTO organization_parts (organization_id, from_ms, shard) " +
      `SELECT s.organization_id, ${from}, '${third}' FROM organization_shards s ` +
      `WHERE s.organization_id = '${organization}' AND s.data_plane = 'shard' ` +
      `AND coalesce((SELECT max(from_ms) FROM (${parts})), 0) < ${from} ` +
      `AND coalesce((SELECT shard FROM (${parts}) ORDER BY from_ms DESC LIMIT 1), s.shard) <> '${third}' ` +
      "RETURNING organization_id, from_ms, shard",
  );
  console.log(
    added.length
      ? `${organization}: conversations created from ${new Date(from).toISOString()} on go to ${third}`
      : `${organization}: no part added (its data plane is not in its shard, or ${third} takes its newest ` +
          "conversations already)",
  );
  process.exit(0);
}
// The organization's row exists once its first message's terms were shipped; none yet: nothing to move. The move
// copies search terms only, so an organization whose whole data plane is in its shard is not moved (nothing returned).
const [moved] = execute(
  `UPDATE organization_shards SET moving_to = '${second}', cursor = NULL, since = ${now} ` +
    `WHERE organization_id = '${organization}' AND shard <> '${second}' ` +
    "AND moving_to IS NULL AND moving_from IS NULL AND data_plane = 'db' RETURNING organization_id, shard, moving_to",
);
console.log(moved.length ? `${organization}: terms moving to ${second}` : `${organization}: nothing to move`);
