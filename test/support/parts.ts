// An organization whose data plane has a second part (services/shards/parts.ts; docs/scale.md §5, "One organization
// over several shards"), for the tests of what reads or writes across parts.
import { env } from "cloudflare:workers";
import { getDataDb } from "../../src/db";
import type { Db } from "../../src/env";
import { SHARDS, shardDb, type ShardName } from "../../src/services/shards";
import { addDataPart, PART_LEAD_MS } from "../../src/services/shards/parts";
import { planeState } from "../../src/services/shards/plane-router";

export interface TwoParts {
  /** The organization's own shard: its conversations made before `from`. */
  home: ShardName;
  /** The second part's shard: its conversations made from `from` on. */
  other: ShardName;
  from: number;
  homeDb: Db;
  otherDb: Db;
}

/**
 * Gives the organization a second part in the other shard, starting `ago` ms before now (the clock `addDataPart` is
 * given is moved back by as much, so the part is as it will be once its start has come).
 */
export async function secondPart(organizationId: string, ago = 1_000): Promise<TwoParts> {
  // Read before any I/O: the clock moves on with each, and a caller's `ago` is measured from now.
  const from = Date.now() - ago;
  const { shard: home } = await planeState(env, organizationId, true);
  const other = SHARDS.find((s) => s !== home)!;
  await addDataPart(env, organizationId, other, from, from - PART_LEAD_MS);
  return { home, other, from, homeDb: getDataDb(shardDb(env, home)), otherDb: getDataDb(shardDb(env, other)) };
}
