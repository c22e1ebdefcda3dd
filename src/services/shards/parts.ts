// One organization's data plane over several shards (docs/scale.md §5, "One organization over several shards";
// docs/decisions.md, "One organization over several parts"): past its shard, an organization may have further parts,
// each taking the conversations created from its `from` on (by the time in the conversation's UUID v7), so adding one
// moves no row. This is the directory's side: which part holds a conversation (`conversationDb`), and every part
// (`dataParts`; the readers across conversations add or merge the parts' answers: ./parts-sum.ts, ./parts-merge.ts).
import { getDataDb, getDb } from "../../db";
import { organizationParts } from "../../db/schema";
import type { Bindings, Db } from "../../env";
import { conflict, fieldError } from "../../lib/errors";
import { dataDb, SHARDS, shardDb, type ShardName } from ".";
import { planeState } from "./plane-router";

export interface DataPart {
  /** The first millisecond of its conversations' ids. */
  from: number;
  shard: ShardName;
}

/**
 * How far ahead of now a part starts: past every isolate's memory of the directory (2 s) and any conversation id made
 * but not yet stored (a spare id is used within a minute), so no conversation is written before its part is known.
 */
export const PART_LEAD_MS = 2 * 60_000;

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The time a UUID v7 was made (its first 48 bits, in ms); null for any other id. */
export function uuidv7Time(id: string): number | null {
  if (!UUID_V7.test(id)) return null;
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

/** An organization's further parts, oldest first (none: its shard holds its whole data plane). */
export async function partsOf(env: Bindings, organizationId: string): Promise<DataPart[]> {
  return (await planeState(env, organizationId)).parts;
}

/**
 * The shard of a conversation: the latest part whose `from` is at or before its id's time, else the organization's
 * own (`home`). An id that is not a UUID v7 was never made by a part's time: the organization's shard.
 */
export function partOf(home: ShardName, parts: DataPart[], conversationId: string): ShardName {
  const at = uuidv7Time(conversationId);
  if (at === null) return home;
  let latest: DataPart | null = null;
  for (const part of parts) if (part.from <= at && (!latest || part.from > latest.from)) latest = part;
  return latest?.shard ?? home;
}

/** The shard holding one conversation's rows; null for an organization whose data plane is not in a shard yet. */
export async function conversationShard(
  env: Bindings,
  organizationId: string,
  conversationId: string,
): Promise<ShardName | null> {
  const state = await planeState(env, organizationId);
  return state.plane === "shard" ? partOf(state.shard, state.parts, conversationId) : null;
}

/**
 * The part of an organization's data plane holding one conversation's rows (its index row, labels, stretches, events,
 * records, deliveries, terms): for most organizations, their data plane.
 */
export async function conversationDb(env: Bindings, organizationId: string, conversationId: string): Promise<Db> {
  const shard = await conversationShard(env, organizationId, conversationId);
  return shard ? getDataDb(shardDb(env, shard)) : dataDb(env, organizationId);
}

/**
 * The shards of an organization's parts, newest first, each once (most organizations: their shard alone); null for
 * one whose data plane is not in a shard yet.
 */
export async function partShards(env: Bindings, organizationId: string): Promise<ShardName[] | null> {
  const state = await planeState(env, organizationId);
  if (state.plane !== "shard") return null;
  return [...new Set([state.shard, ...state.parts.map((p) => p.shard)].reverse())];
}

/** Every part of an organization's data plane, newest first: for most organizations, its data plane alone. */
export async function dataParts(env: Bindings, organizationId: string): Promise<Db[]> {
  const shards = await partShards(env, organizationId);
  return shards ? shards.map((name) => getDataDb(shardDb(env, name))) : [await dataDb(env, organizationId)];
}

/**
 * Adds a part: the organization's conversations created from `from` on go to `shard`. Refused for an organization
 * whose data plane is not in its shard yet, a `from` sooner than PART_LEAD_MS from now or not after the last part's,
 * a shard the deployment does not have, or the shard the conversations go to already.
 */
export async function addDataPart(
  env: Bindings,
  organizationId: string,
  shard: string,
  from: number,
  now = Date.now(),
): Promise<DataPart> {
  if (!(SHARDS as readonly string[]).includes(shard))
    throw fieldError("shard", `No shard ${shard}: the deployment has ${SHARDS.join(", ")}.`);
  if (from < now + PART_LEAD_MS)
    throw fieldError("from", `A part starts at least ${PART_LEAD_MS / 60_000} minutes ahead, past every cache.`);
  const state = await planeState(env, organizationId, true);
  if (state.plane !== "shard")
    throw conflict(`The organization's data plane is ${state.plane === "db" ? "in DB" : "moving"}: move it first.`);
  const last = state.parts.at(-1);
  if (last && from <= last.from) throw fieldError("from", "A part starts after the organization's last part.");
  if ((last?.shard ?? state.shard) === shard)
    throw conflict(`The organization's newest conversations are in ${shard} already.`);
  const part = { from, shard: shard as ShardName };
  await getDb(env.DB)
    .insert(organizationParts)
    .values({ organizationId, ...part });
  // This isolate knows the part at once, whatever a read under way had read before (other isolates within the
  // directory's 2 s, long before `from`).
  await planeState(env, organizationId, true);
  return part;
}

/** The first id (as text) a UUID v7 made at `ms` can have: ids compare as their times do. */
export const idFloor = (ms: number) => {
  const hex = ms.toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8)}`;
};

/**
 * The spans of conversation ids, per organization with several parts, that another database than `database` holds
 * (each `[organizationId, from, to)` as id text, `to` "" for no end): for work on one database that must leave alone
 * the rows naming conversations it does not hold (the orphan attachments' sweep).
 */
export async function partsElsewhere(env: Bindings, database: ShardName | "DB"): Promise<[string, string, string][]> {
  const { results } = await env.DB.prepare(
    "SELECT p.organization_id AS org, p.from_ms AS from_ms, p.shard AS shard, s.shard AS home " +
      "FROM organization_parts p JOIN organization_shards s USING (organization_id) " +
      "WHERE s.data_plane = 'shard' ORDER BY p.organization_id, p.from_ms",
  ).all<{ org: string; from_ms: number; shard: ShardName; home: ShardName }>();
  const spans: [string, string, string][] = [];
  const byOrg = new Map<string, typeof results>();
  for (const row of results) byOrg.set(row.org, [...(byOrg.get(row.org) ?? []), row]);
  for (const [org, parts] of byOrg) {
    // The organization's own shard holds what comes before its first part.
    const bounds = [
      { from: "", shard: parts[0].home },
      ...parts.map((p) => ({ from: idFloor(p.from_ms), shard: p.shard })),
    ];
    bounds.forEach((b, i) => {
      if (b.shard !== database) spans.push([org, b.from, bounds[i + 1]?.from ?? ""]);
    });
  }
  return spans;
}
