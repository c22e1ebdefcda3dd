#!/usr/bin/env node
// Starts a move of an organization's rows (an operator's command, with wrangler's own credentials; the every-minute
// cron does the rest):
// - `node scripts/move-organization.mjs <organization id> --data-plane --remote` (or --local): its data plane from
//   `DB` to its shard, as startDataPlaneMove does (src/services/shards/data-plane-move.ts);
// - `node scripts/move-organization.mjs <organization id> <CONVERSATIONS_n> --remote`: the search terms of an
//   organization whose data plane is in `DB` to another shard, as startMove does (src/services/shards/move.ts).
// `wrangler d1 execute DB --remote --command "SELECT * FROM organization_shards WHERE data_plane IN ('moving',
// 'fenced') OR cursor IS NOT NULL"` shows the moves under way.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { d1Bindings } from "./d1-migrate.mjs";

const [organizationId, to, ...flags] = process.argv.slice(2);
const shards = d1Bindings(readFileSync("wrangler.toml", "utf8")).filter((b) => b !== "DB");
if (!/^[0-9a-f-]{36}$/i.test(organizationId ?? "") || !(to === "--data-plane" || shards.includes(to))) {
  console.error(`usage: move-organization.mjs <organization id> <${shards.join("|")}|--data-plane> --remote|--local`);
  process.exit(2);
}
const organization = organizationId.toLowerCase();
const now = Date.now();

/** The shard an organization is placed on: FNV-1a of its id over the shards in wrangler.toml's order, as
 * src/services/shards/index.ts `placement` (for an organization with no directory row yet). */
function placement(id) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return shards[(hash >>> 0) % shards.length];
}

if (to === "--data-plane") {
  const commands =
    "INSERT INTO organization_shards (organization_id, shard, since) " +
    `SELECT '${organization}', '${placement(organization)}', ${now} ` +
    `WHERE EXISTS (SELECT 1 FROM organizations WHERE id = '${organization}') ` +
    "ON CONFLICT (organization_id) DO NOTHING; " +
    `UPDATE organization_shards SET data_plane = 'moving', cursor = NULL, since = ${now} ` +
    `WHERE organization_id = '${organization}' AND data_plane = 'db' AND moving_to IS NULL AND moving_from IS NULL ` +
    "RETURNING organization_id, shard, data_plane";
  const run = spawnSync("wrangler", ["d1", "execute", "DB", ...flags, "--command", commands], { stdio: "inherit" });
  process.exit(run.status ?? 1);
}
// The organization's row exists once its first message's terms were shipped; none yet: nothing to move. The move
// copies search terms only, so an organization whose whole data plane is in its shard is not moved (nothing returned).
const update =
  `UPDATE organization_shards SET moving_to = '${to}', cursor = NULL, since = ${now} ` +
  `WHERE organization_id = '${organization}' AND shard <> '${to}' ` +
  "AND moving_to IS NULL AND moving_from IS NULL AND data_plane = 'db' RETURNING organization_id, shard, moving_to";
const run = spawnSync("wrangler", ["d1", "execute", "DB", ...flags, "--command", update], { stdio: "inherit" });
process.exit(run.status ?? 1);
