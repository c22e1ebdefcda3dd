// Organization shards (docs/scale.md §4; docs/decisions.md, "Organization shards"): D1 databases of their own
// (`CONVERSATIONS_n`, migrations-shards/) holding what grows with an organization's conversations: its whole data
// plane (src/db/planes.ts; docs/decisions.md, "The organization's data plane in its shard") for organizations created
// since, only its search terms (services/conversation/search-terms.ts) for those from before. A directory in `DB`
// (`organization_shards`) names each organization's shard, by a hash of its id: written with a new organization, on
// first use for one from before, whose terms may be moved (./move.ts).
import { getDataDb, getDb } from "../../db";
import { client } from "../../db/prepared";
import type { Bindings, Db } from "../../env";
import { notConfigured } from "../../lib/errors";
import { planeState, routedDataPlane } from "./plane-router";

/** The shards' binding names, as wrangler.toml declares them. Placement hashes over this list: a shard added at the
 * end places only new organizations differently (the directory keeps where the others are). */
export const SHARDS = ["CONVERSATIONS_1", "CONVERSATIONS_2"] as const;
export type ShardName = (typeof SHARDS)[number];

/** Where an organization's rows are read (`read`) and written (`writes`: both shards while a move copies them). */
export interface Placement {
  read: ShardName;
  writes: ShardName[];
}

/** The D1 binding of a shard; a clear error when the deployment does not bind it (wrangler.toml `[[d1_databases]]`). */
export function shardDb(env: Bindings, name: string): D1Database {
  const db = (env as unknown as Record<string, unknown>)[name];
  if (!db || typeof (db as D1Database).prepare !== "function")
    throw notConfigured(`The D1 binding ${name} (an organization shard) is missing: declare it in wrangler.toml.`);
  return db as D1Database;
}

/** The shard a new organization is placed on: FNV-1a of its id over SHARDS, the same on every worker. */
export function placement(organizationId: string): ShardName {
  let hash = 0x811c9dc5;
  for (let i = 0; i < organizationId.length; i++) hash = Math.imul(hash ^ organizationId.charCodeAt(i), 0x01000193);
  return SHARDS[(hash >>> 0) % SHARDS.length];
}

/** Directory rows for organizations that have none yet (each `[id, shard]` of ?1), if the organization exists. */
const PLACE =
  "INSERT INTO organization_shards (organization_id, shard, since) " +
  "SELECT value ->> 0, value ->> 1, ?2 FROM json_each(?1) " +
  "WHERE EXISTS (SELECT 1 FROM organizations WHERE id = value ->> 0) ON CONFLICT (organization_id) DO NOTHING";
const READ =
  "SELECT organization_id, shard, moving_to FROM organization_shards " +
  "WHERE organization_id IN (SELECT value ->> 0 FROM json_each(?1))";

type DirectoryRow = { organization_id: string; shard: ShardName; moving_to: ShardName | null };

/**
 * Each organization's placement, read from the directory; the rows of organizations placed for the first time are
 * written then (one batch for all of them), so a search or a ship page writes nothing once its organization is
 * placed. An organization that does not exist (deleted) has none.
 */
export async function organizationPlacements(
  env: Bindings,
  organizationIds: string[],
  now = Date.now(),
): Promise<Map<string, Placement>> {
  const ids = JSON.stringify(organizationIds.map((id) => [id, placement(id)]));
  let { results } = await env.DB.prepare(READ).bind(ids).all<DirectoryRow>();
  if (results.length < new Set(organizationIds).size) {
    const [, read] = await env.DB.batch<DirectoryRow>([
      env.DB.prepare(PLACE).bind(ids, now),
      env.DB.prepare(READ).bind(ids),
    ]);
    results = read.results;
  }
  return new Map(
    results.map((r) => [
      r.organization_id,
      { read: r.shard, writes: r.moving_to ? [r.shard, r.moving_to] : [r.shard] },
    ]),
  );
}

/** One organization's placement (see organizationPlacements); for one that does not exist, where it would be. */
export async function organizationPlacement(env: Bindings, organizationId: string): Promise<Placement> {
  const found = (await organizationPlacements(env, [organizationId])).get(organizationId);
  return found ?? { read: placement(organizationId), writes: [placement(organizationId)] };
}

/** Every shard's binding, for work done on each (the cron's fold, an organization's delete). */
export const allShards = (env: Bindings) => SHARDS.map((name) => ({ name, db: shardDb(env, name) }));

/**
 * An organization's data plane (src/db/planes.ts: its conversations, contacts, records, deliveries and figures): its
 * shard when its directory row says so (organizations created since the shards hold it, and those moved there), else
 * `DB` through a binding that follows the rows when they move (./plane-router.ts; docs/scale.md §5 step 4, "The
 * worklist" 7, steps 7-8).
 */
export async function dataDb(env: Bindings, organizationId: string): Promise<Db> {
  const { plane, shard } = await planeState(env, organizationId);
  return getDataDb(plane === "shard" ? shardDb(env, shard) : routedDataPlane(env, organizationId));
}

/** Every database holding some organization's data plane (`DB` and each shard), for work across organizations. */
export const dataDbs = (env: Bindings): Db[] => [env.DB, ...SHARDS.map((name) => shardDb(env, name))].map(getDataDb);

/** Sets columns (`set`, its values from ?2 on) of an organization's directory row, through `DB`'s watched binding so
 * this isolate's caches of the directory forget at once (src/db/write-watch.ts); other isolates' within their 2 s. */
export function setDirectory(
  env: Bindings,
  organizationId: string,
  set: string,
  values: unknown[] = [],
  andWhere = "",
) {
  return client(getDb(env.DB))
    .prepare(`UPDATE organization_shards SET ${set} WHERE organization_id = ?1 ${andWhere}`)
    .bind(organizationId, ...values)
    .run();
}
