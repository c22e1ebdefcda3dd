// Moving an organization's rows to another shard while they are written (docs/scale.md §4, "Moving an organization
// between shards"), a step each run of the every-minute cron (services/conversation/search-terms.ts, runTermsCron):
// 1. startMove sets `moving_to`: from then on the pending terms shipped for the organization go to both shards;
// 2. once every ship that read the directory before has ended (MOVE_GRACE_MS), its folded terms on the old shard are
//    copied to the new one in pages of key order, upserted (a row both have keeps the newer `last_at`);
// 3. the rows each shard keeps (not yet expired) are counted: equal, reads switch (`shard` becomes the new one,
//    `moving_from` the old); unequal, the copy runs again;
// 4. once every search that read the directory before has ended, the old shard's rows are deleted in pages, then
//    `moving_from` is cleared.
import type { Bindings } from "../../env";
import { TERMS_KEPT_MS, foldPendingTerms, uuidBytes } from "../conversation/search-terms";
import { organizationPlacement, setDirectory, SHARDS, shardDb, type ShardName } from ".";
import { planeState } from "./plane-router";

/** How long a step waits for work that read the directory before it (a ship page, a search) to end. */
export const MOVE_GRACE_MS = 2 * 60_000;

interface Move {
  organization_id: string;
  shard: ShardName;
  moving_to: ShardName | null;
  moving_from: ShardName | null;
  cursor: string | null;
  since: number;
}

/**
 * Starts moving an organization's rows to shard `to`; false when they are there already or a move is under way. The
 * entry point of an operator (scripts/move-organization.mjs runs the same UPDATE on a deployment's `DB`).
 */
export async function startMove(env: Bindings, organizationId: string, to: string, now = Date.now()) {
  if (!(SHARDS as readonly string[]).includes(to)) throw new Error(`${to} is not a shard (${SHARDS.join(", ")})`);
  shardDb(env, to);
  await organizationPlacement(env, organizationId);
  const { plane } = await planeState(env, organizationId, true);
  // This move copies search terms; a data plane moves to its shard by ./data-plane-move.ts, and not while this runs.
  if (plane !== "db")
    throw new Error(
      `Organization ${organizationId}'s data plane is ${plane === "shard" ? "in its shard" : "moving there"}: ` +
        "only its search terms could move.",
    );
  const { meta } = await env.DB.prepare(
    "UPDATE organization_shards SET moving_to = ?2, cursor = NULL, since = ?3 " +
      "WHERE organization_id = ?1 AND shard <> ?2 AND moving_to IS NULL AND moving_from IS NULL",
  )
    .bind(organizationId, to, now)
    .run();
  return meta.changes > 0;
}

/** Advances every move under way by one step (see above); `pages` of `size` rows copied or deleted a run. */
export async function advanceMoves(env: Bindings, now = Date.now(), { pages = 10, size = 2000 } = {}) {
  const { results } = await env.DB.prepare(
    "SELECT organization_id, shard, moving_to, moving_from, cursor, since FROM organization_shards " +
      "WHERE moving_to IS NOT NULL OR moving_from IS NOT NULL",
  ).all<Move>();
  for (const move of results) {
    if (now - move.since < MOVE_GRACE_MS) continue;
    if (move.moving_to) await copy(env, move, move.moving_to, now, pages, size);
    else if (move.moving_from) await clean(env, move, move.moving_from, pages, size);
  }
}

type Key = [term: string, conversationId: string];
const ROWS_AFTER =
  "SELECT term, hex(conversation_id) AS conversation, last_at FROM conversation_terms " +
  `WHERE organization_id = ${uuidBytes("?1")} AND (term, conversation_id) > (?2, unhex(?3)) ` +
  "ORDER BY term, conversation_id LIMIT ?4";
const UPSERT =
  "INSERT INTO conversation_terms (organization_id, term, conversation_id, last_at) " +
  `SELECT ${uuidBytes("?1")}, value ->> 0, unhex(value ->> 1), value ->> 2 FROM json_each(?2) WHERE true ` +
  "ON CONFLICT (organization_id, term, conversation_id) DO UPDATE SET last_at = max(last_at, excluded.last_at)";
const KEPT =
  `SELECT count(*) AS n FROM conversation_terms WHERE organization_id = ${uuidBytes("?1")} ` + "AND last_at >= ?2";

async function copy(env: Bindings, move: Move, to: ShardName, now: number, pages: number, size: number) {
  const from = shardDb(env, move.shard);
  const target = shardDb(env, to);
  let cursor: Key = move.cursor ? JSON.parse(move.cursor) : ["", ""];
  // What was shipped to the old shard alone is pending there: folded first, so the copy sees it.
  if (!move.cursor) await foldPendingTerms(from);
  for (let page = 0; page < pages; page++) {
    const { results } = await from
      .prepare(ROWS_AFTER)
      .bind(move.organization_id, ...cursor, size)
      .all<{ term: string; conversation: string; last_at: number }>();
    if (results.length) {
      const rows = results.map((r) => [r.term, r.conversation, r.last_at]);
      await target.prepare(UPSERT).bind(move.organization_id, JSON.stringify(rows)).run();
      const last = results[results.length - 1];
      cursor = [last.term, last.conversation];
      await setDirectory(env, move.organization_id, "cursor = ?2", [JSON.stringify(cursor)]);
    }
    if (results.length < size) return compare(env, move, from, target, now);
  }
}

/**
 * The rows each shard keeps of the organization (a row the old shard expired since it was copied is left out of
 * both), after both folded what was shipped to them: equal, reads switch to the new shard; not, the copy starts over.
 */
async function compare(env: Bindings, move: Move, from: D1Database, target: D1Database, now: number) {
  await Promise.all([foldPendingTerms(from), foldPendingTerms(target)]);
  const kept = now - TERMS_KEPT_MS;
  const [old, copied] = await Promise.all(
    [from, target].map((d1) => d1.prepare(KEPT).bind(move.organization_id, kept).first<number>("n")),
  );
  if (old === copied)
    await setDirectory(
      env,
      move.organization_id,
      "shard = moving_to, moving_from = shard, moving_to = NULL, cursor = NULL, since = ?2",
      [now],
    );
  else await setDirectory(env, move.organization_id, "cursor = NULL");
}

async function clean(env: Bindings, move: Move, old: ShardName, pages: number, size: number) {
  const d1 = shardDb(env, old);
  for (let page = 0; page < pages; page++) {
    const [terms, pending] = await d1.batch([
      d1
        .prepare(
          `DELETE FROM conversation_terms WHERE organization_id = ${uuidBytes("?1")} AND (term, conversation_id) IN ` +
            `(SELECT term, conversation_id FROM conversation_terms WHERE organization_id = ${uuidBytes("?1")} ` +
            "LIMIT ?2)",
        )
        .bind(move.organization_id, size),
      d1.prepare("DELETE FROM conversation_terms_pending WHERE organization_id = ?1").bind(move.organization_id),
    ]);
    if (terms.meta.changes + pending.meta.changes === 0) {
      await setDirectory(env, move.organization_id, "moving_from = NULL");
      return;
    }
  }
}
