// Organization shards (services/shards): an organization's search terms in its own shard (CONVERSATIONS_n) and not
// the other, a directory row on first use, each shard migrated with its own migrations, a failed shard write made
// good by the next cron, and a move to the other shard while messages keep arriving.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fromBeforeTheShards, seedOwner, type Actor } from "../harness";
import { conversation, say, search } from "../support/conversation-search";
import { foldPendingTerms, runTermsCron, shipPendingTerms } from "../../src/services/conversation/search-terms";
import { organizationPlacement, placement, SHARDS, shardDb, type ShardName } from "../../src/services/shards";
import { advanceMoves, MOVE_GRACE_MS, startMove } from "../../src/services/shards/move";
import type { Bindings } from "../../src/env";

/** An organization's rows in a database: its folded terms and its pending ones. */
async function rowsIn(d1: D1Database, actor: Actor) {
  const [terms, pending] = await d1.batch<{ n: number }>([
    d1
      .prepare("SELECT count(*) AS n FROM conversation_terms WHERE organization_id = unhex(replace(?, '-', ''))")
      .bind(actor.organizationId),
    d1
      .prepare("SELECT count(*) AS n FROM conversation_terms_pending WHERE organization_id = ?")
      .bind(actor.organizationId),
  ]);
  return { terms: terms.results[0].n, pending: pending.results[0].n };
}

const other = (shard: ShardName) => SHARDS.find((s) => s !== shard)!;

/** Places an organization on `shard` before its first use (as the directory would by its rule). */
const placeOn = (actor: Actor, shard: ShardName) =>
  env.DB.prepare("INSERT INTO organization_shards (organization_id, shard, since) VALUES (?, ?, ?)")
    .bind(actor.organizationId, shard, Date.now())
    .run();

const directory = (actor: Actor) =>
  env.DB.prepare("SELECT shard, moving_to, moving_from FROM organization_shards WHERE organization_id = ?")
    .bind(actor.organizationId)
    .first<{ shard: ShardName; moving_to: ShardName | null; moving_from: ShardName | null }>();

const cursor = (actor: Actor) =>
  env.DB.prepare("SELECT cursor FROM organization_shards WHERE organization_id = ?")
    .bind(actor.organizationId)
    .first<string | null>("cursor");

describe("organization shards", () => {
  it("are migrated each with their own migrations, and the directory in DB with DB's", async () => {
    for (const name of SHARDS) {
      const { results } = await shardDb(env, name)
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name LIKE 'conversation_terms%'")
        .all<{ name: string; sql: string }>();
      const tables = new Map(results.map((r) => [r.name, r.sql]));
      expect([...tables.keys()].sort(), name).toEqual([
        "conversation_terms",
        "conversation_terms_cursors",
        "conversation_terms_pending",
      ]);
      expect(tables.get("conversation_terms")).toMatch(/WITHOUT ROWID/);
      // Only what the shards hold: none of DB's tables.
      const organizations = await shardDb(env, name)
        .prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'organizations'")
        .first<number>("n");
      expect(organizations).toBe(0);
    }
    const dir = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE name = 'organization_shards'").first<string>(
      "sql",
    );
    expect(dir).toMatch(/moving_to/);
  });

  it("place an organization by a fixed rule on first use, and name a missing binding", async () => {
    const owner = await seedOwner();
    await fromBeforeTheShards(owner.organizationId, { placed: false });
    expect(await directory(owner)).toBeNull();
    expect(placement(owner.organizationId)).toBe(placement(owner.organizationId));
    const found = await organizationPlacement(env, owner.organizationId);
    expect(found).toEqual({ read: placement(owner.organizationId), writes: [placement(owner.organizationId)] });
    expect((await directory(owner))?.shard).toBe(placement(owner.organizationId));
    // Ids spread over both shards.
    const spread = new Set(Array.from({ length: 40 }, () => placement(crypto.randomUUID())));
    expect([...spread].sort()).toEqual([...SHARDS]);
    const without = { ...env, CONVERSATIONS_2: undefined } as unknown as Bindings;
    expect(() => shardDb(without, "CONVERSATIONS_2")).toThrow(/CONVERSATIONS_2/);
  });

  it("keep an organization's terms in its shard alone, and never show one organization another's", async () => {
    const [a, b] = [await seedOwner(), await seedOwner()];
    for (const actor of [a, b]) await fromBeforeTheShards(actor.organizationId, { placed: false });
    await placeOn(a, "CONVERSATIONS_1");
    await placeOn(b, "CONVERSATIONS_2");
    const ours = await conversation(a, "the zeppelin landed");
    const theirs = await conversation(b, "the zeppelin landed");
    await say(a, ours, "a marmalade note");
    await say(b, theirs, "a marmalade note");
    // Found before the cron (DB's pending rows) and after it (the shard's terms).
    expect(await search(a, "marmalade")).toEqual([ours]);
    await runTermsCron(env);
    expect(await rowsIn(env.DB, a)).toEqual({ terms: 0, pending: 0 });
    expect((await rowsIn(env.CONVERSATIONS_1, a)).terms).toBeGreaterThan(0);
    expect(await rowsIn(env.CONVERSATIONS_2, a)).toEqual({ terms: 0, pending: 0 });
    expect((await rowsIn(env.CONVERSATIONS_2, b)).terms).toBeGreaterThan(0);
    expect(await rowsIn(env.CONVERSATIONS_1, b)).toEqual({ terms: 0, pending: 0 });
    expect(await search(a, "marmalade")).toEqual([ours]);
    expect(await search(b, "marmalade")).toEqual([theirs]);
    expect(await search(b, "zeppelin marmalade")).toEqual([theirs]);
  });

  it("lose no terms when the shard write fails: they stay in DB, searched, and arrive with a later cron", async () => {
    const owner = await seedOwner();
    await fromBeforeTheShards(owner.organizationId);
    const shard = (await organizationPlacement(env, owner.organizationId)).read;
    const id = await conversation(owner, "a quokka smiled");
    const down = {
      ...env,
      [shard]: { prepare: (q: string) => env[shard].prepare(q), batch: () => Promise.reject(new Error("D1 is down")) },
    } as unknown as Bindings;
    await expect(shipPendingTerms(down)).rejects.toThrow("D1 is down");
    expect((await rowsIn(env.DB, owner)).pending).toBeGreaterThan(0);
    expect(await rowsIn(env[shard], owner)).toEqual({ terms: 0, pending: 0 });
    expect(await search(owner, "quokka")).toEqual([id]);
    await runTermsCron(env);
    expect(await rowsIn(env.DB, owner)).toEqual({ terms: 0, pending: 0 });
    expect((await rowsIn(env[shard], owner)).terms).toBeGreaterThan(0);
    expect(await search(owner, "quokka")).toEqual([id]);
  });

  it("place a new organization at its creation, its whole data plane there, which this move refuses", async () => {
    const owner = await seedOwner();
    const row = await env.DB.prepare("SELECT shard, data_plane FROM organization_shards WHERE organization_id = ?1")
      .bind(owner.organizationId)
      .first();
    expect(row).toEqual({ shard: placement(owner.organizationId), data_plane: "shard" });
    const to = SHARDS.find((s) => s !== row!.shard)!;
    await expect(startMove(env, owner.organizationId, to)).rejects.toThrow(/data plane is in its shard/);
    expect(
      await env.DB.prepare("SELECT moving_to FROM organization_shards WHERE organization_id = ?1")
        .bind(owner.organizationId)
        .first("moving_to"),
    ).toBeNull();
  });

  it("move an organization to the other shard while messages arrive, losing none and leaving none behind", async () => {
    const owner = await seedOwner();
    await fromBeforeTheShards(owner.organizationId);
    const from = (await organizationPlacement(env, owner.organizationId)).read;
    const to = other(from);
    const id = await conversation(owner, "first words");
    const words: string[] = [];
    const note = async (n: number) => {
      const word = `word${n}x${"abcdefgh"[n % 8]}`;
      words.push(word);
      await say(owner, id, `${word} and filler${n} text`);
    };
    for (let n = 0; n < 6; n++) await note(n);
    await runTermsCron(env);
    const before = await rowsIn(env[from], owner);
    expect(before.terms).toBeGreaterThan(10);

    let now = Date.now();
    expect(await startMove(env, owner.organizationId, to, now)).toBe(true);
    expect(await startMove(env, owner.organizationId, to, now)).toBe(false); // one move at a time
    expect((await organizationPlacement(env, owner.organizationId)).writes).toEqual([from, to]);
    let straggler = false;
    let copies = 0;
    for (let step = 0, n = 6; step < 40; step++, n++) {
      // A message during each step, its terms shipped beside the step (to both shards while the copy runs).
      await Promise.all([note(n), advanceMoves(env, now, { pages: 1, size: 7 })]);
      await shipPendingTerms(env);
      await Promise.all(SHARDS.map((s) => foldPendingTerms(env[s])));
      const row = await directory(owner);
      // A ship that read the directory before the move wrote to the old shard alone, behind the copy's cursor: the
      // counts differ, and the copy runs again.
      if (row?.moving_to && (await cursor(owner)) && !straggler) {
        straggler = true;
        await env[from]
          .prepare(
            "INSERT INTO conversation_terms (organization_id, term, conversation_id, last_at) " +
              "VALUES (unhex(replace(?, '-', '')), 'aardvarkstraggler', unhex(replace(?, '-', '')), ?)",
          )
          .bind(owner.organizationId, id, Date.now())
          .run();
        words.push("aardvarkstraggler");
      }
      // Every word is found at every step, wherever reads go.
      expect(await search(owner, words[words.length - 1])).toEqual([id]);
      if (row?.moving_to && straggler && !(await cursor(owner))) copies++;
      if (!row?.moving_to && !row?.moving_from) break;
      now += MOVE_GRACE_MS;
    }
    expect(await directory(owner)).toEqual({ shard: to, moving_to: null, moving_from: null });
    expect(copies).toBeGreaterThan(0); // the straggler made the copy start over
    expect(await rowsIn(env[from], owner)).toEqual({ terms: 0, pending: 0 });
    expect((await rowsIn(env[to], owner)).terms).toBeGreaterThan(before.terms);
    await runTermsCron(env);
    for (const word of words) expect(await search(owner, word), word).toEqual([id]);
  });
});
