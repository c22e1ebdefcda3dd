#!/usr/bin/env node
// Starts moving an organization's rows to another organization shard (an operator's command, with wrangler's own
// credentials): `node scripts/move-organization.mjs <organization id> <CONVERSATIONS_n> --remote` (or --local). It
// sets the directory row's `moving_to` as startMove does (src/services/shards/move.ts); the every-minute cron does the
// rest, and `wrangler d1 execute DB --remote --command "SELECT * FROM organization_shards WHERE moving_to IS NOT NULL
// OR moving_from IS NOT NULL"` shows the moves under way.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { d1Bindings } from "./d1-migrate.mjs";

const [organizationId, to, ...flags] = process.argv.slice(2);
const shards = d1Bindings(readFileSync("wrangler.toml", "utf8")).filter((b) => b !== "DB");
if (!/^[0-9a-f-]{36}$/i.test(organizationId ?? "") || !shards.includes(to)) {
  console.error(`usage: move-organization.mjs <organization id> <${shards.join("|")}> --remote|--local`);
  process.exit(2);
}
// The organization's row exists once its first message's terms were shipped; none yet: nothing to move. The move
// copies search terms only, so an organization whose whole data plane is in its shard is not moved (nothing returned).
const update =
  `UPDATE organization_shards SET moving_to = '${to}', cursor = NULL, since = ${Date.now()} ` +
  `WHERE organization_id = '${organizationId.toLowerCase()}' AND shard <> '${to}' ` +
  "AND moving_to IS NULL AND moving_from IS NULL AND data_plane = 'db' RETURNING organization_id, shard, moving_to";
const run = spawnSync("wrangler", ["d1", "execute", "DB", ...flags, "--command", update], { stdio: "inherit" });
process.exit(run.status ?? 1);
