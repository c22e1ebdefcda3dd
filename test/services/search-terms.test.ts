// Conversation search terms (services/conversation/search-terms.ts): each stored message's terms
// pending in its own batch and searched at once, shipped to the organization's shard and folded into its
// `conversation_terms` by the every-minute cron many conversations at a time; messages stored before the terms
// existed indexed by housekeeping in pages; terms 90 days old removed.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fromBeforeTheShards, seedOwner, type Actor } from "../harness";
import { uuidv7 } from "../../src/lib/ids";
import worker from "../../src/index";
import { runHousekeeping } from "../../src/services/housekeeping";
import {
  backfillSearchTerms,
  expireSearchTerms,
  foldPendingTerms,
  runTermsCron,
  shipPendingTerms,
  TERMS_KEPT_MS,
} from "../../src/services/conversation/search-terms";
import { organizationPlacement, shardDb } from "../../src/services/shards";
import { conversation, say, search } from "../support/conversation-search";

/** A message stored as before migration 0029: straight into D1, without the pipeline and its terms. */
async function storedBefore(actor: Actor, conversationId: string, sequence: number, content: string, isPrivate = 0) {
  const { meta } = await env.DB.prepare(
    "INSERT INTO messages (id, organization_id, conversation_id, sequence, type, sender_type, content, private, " +
      "created_at) VALUES (?, ?, ?, ?, 'incoming', 'contact', ?, ?, ?)",
  )
    .bind(uuidv7(), actor.organizationId, conversationId, sequence, content, isPrivate, Date.now())
    .run();
  return meta.last_row_id;
}

const setBackfill = (after: number, through: number) =>
  env.DB.prepare(
    "INSERT INTO conversation_terms_cursors (id, position) VALUES ('backfill', ?1) " +
      "ON CONFLICT (id) DO UPDATE SET position = excluded.position",
  )
    .bind(JSON.stringify({ after, through }))
    .run();

/** Every organization shard (wrangler.toml's CONVERSATIONS_n). */
const shards = () => [env.CONVERSATIONS_1, env.CONVERSATIONS_2];
/** The shard an organization's terms are in. */
const shardOf = async (actor: Actor) => shardDb(env, (await organizationPlacement(env, actor.organizationId)).read);
/** What the every-minute cron does: `DB`'s pending terms shipped to the shards, each shard's folded. */
const settle = () => runTermsCron(env);

/** A conversation's folded terms, in whichever shard. */
const rowsOf = async (conversationId: string) => {
  const read = (d1: D1Database) =>
    d1
      .prepare(
        "SELECT term, last_at FROM conversation_terms WHERE conversation_id = unhex(replace(?, '-', '')) ORDER BY term",
      )
      .bind(conversationId)
      .all<{ term: string; last_at: number }>();
  return (await Promise.all(shards().map(read))).flatMap((r) => r.results);
};
const termsOf = async (conversationId: string) => (await rowsOf(conversationId)).map((r) => r.term);

/** A conversation's pending terms, a message each: in `DB` (not shipped yet), then in the shards (not folded yet). */
const pendingOf = async (conversationId: string) =>
  (
    await Promise.all(
      [env.DB, ...shards()].map((d1) =>
        d1
          .prepare("SELECT terms FROM conversation_terms_pending WHERE conversation_id = ? ORDER BY id")
          .bind(conversationId)
          .all<{ terms: string }>(),
      ),
    )
  ).flatMap((r) => r.results.map((row) => JSON.parse(row.terms) as string[]));

const pend = (actor: Actor, conversationId: string, at: number, terms: string[]) =>
  env.DB.prepare(
    "INSERT INTO conversation_terms_pending (organization_id, conversation_id, at, terms) VALUES (?, ?, ?, ?)",
  )
    .bind(actor.organizationId, conversationId, at, JSON.stringify(terms))
    .run();

/** The worker's cron event, as the runtime sends it. */
async function cron(schedule: string) {
  const ctx = createExecutionContext();
  worker.scheduled(createScheduledController({ cron: schedule, scheduledTime: Date.now() }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("conversation search terms", () => {
  it("are pending once stored, found at once, and found the same once the minute's cron folds them in", async () => {
    const owner = await seedOwner();
    const id = await conversation(owner, "my wombat chews cables");
    await say(owner, id, "Note: the wombat's 运费");
    const other = await conversation(owner, "nothing to see");
    // Each message's distinct terms, stopwords and single characters left out; the assistant's reply too.
    const pending = await pendingOf(id);
    expect(pending.length).toBeGreaterThanOrEqual(3);
    expect(pending[0]).toEqual(["wombat", "chews", "cables"]);
    expect(pending.at(-1)).toEqual(["note", "wombat", "运费"]);
    expect(await termsOf(id)).toEqual([]);
    // The title has the first message's words anywhere; the note's words are found through their terms alone.
    const found = ["wombat", "wom", "CABLES", "运费", "wombat note", "Note"];
    for (const keyword of found) expect(await search(owner, keyword)).toEqual([id]);
    expect(await search(owner, "notes")).toEqual([]);
    expect(await search(owner, "ote")).toEqual([]); // the start of a term, not any part

    await cron("* * * * *");
    expect(await pendingOf(id)).toEqual([]);
    const rows = await rowsOf(id);
    expect(rows.map((r) => r.term)).toEqual(expect.arrayContaining(["wombat", "chews", "note", "运费"]));
    expect(new Set(rows.map((r) => r.term)).size).toBe(rows.length);
    for (const keyword of ["wombat", "wom", "CABLES", "运费", "wombat note"])
      expect(await search(owner, keyword)).toEqual([id]);
    expect(await search(owner, "nothing")).toEqual([other]);
  });

  it("a word is found when its terms are some folded, some pending", async () => {
    const owner = await seedOwner();
    const id = await conversation(owner, "运费");
    await settle();
    await say(owner, id, "费太贵 and an accordion");
    expect(await termsOf(id)).toContain("运费");
    expect((await pendingOf(id)).flat()).toEqual(expect.arrayContaining(["费太", "太贵"]));
    expect(await search(owner, "运费太贵")).toEqual([id]);
    expect(await search(owner, "运费 accordion")).toEqual([id]);
    expect(await search(owner, "运费太便宜")).toEqual([]);
  });

  it("are folded a page at a time, each term once with its newest time, a time never going back", async () => {
    const owner = await seedOwner();
    const [a, b] = [await conversation(owner), await conversation(owner)];
    await settle();
    await pend(owner, a, 1000, ["alpha", "beta"]);
    await pend(owner, a, 2000, ["beta"]);
    await pend(owner, b, 1500, ["alpha"]);
    await pend(owner, a, 500, ["gamma", "beta"]);
    // Shipped to the organization's shard a page at a time, then folded there a page at a time.
    expect(await shipPendingTerms(env, { pages: 1, size: 2 })).toBe(true);
    expect(await shipPendingTerms(env, { pages: 5, size: 2 })).toBe(false);
    const shard = await shardOf(owner);
    expect(await foldPendingTerms(shard, { pages: 1, size: 2 })).toBe(true);
    expect(await pendingOf(b)).toEqual([["alpha"]]);
    expect(await foldPendingTerms(shard, { pages: 5, size: 2 })).toBe(false);
    const mine = new Set(["alpha", "beta", "gamma"]);
    const rows = async (id: string) => (await rowsOf(id)).filter((r) => mine.has(r.term));
    expect(await rows(a)).toEqual([
      { term: "alpha", last_at: 1000 },
      { term: "beta", last_at: 2000 },
      { term: "gamma", last_at: 500 },
    ]);
    expect(await rows(b)).toEqual([{ term: "alpha", last_at: 1500 }]);
    expect(await foldPendingTerms(shard)).toBe(false); // nothing left: nothing done

    // The shard refusing the fold's batch: the rows stay pending, and the next run folds them.
    await pend(owner, b, 3000, ["delta"]);
    await shipPendingTerms(env);
    const down = { prepare: (q: string) => shard.prepare(q), batch: () => Promise.reject(new Error("D1 is down")) };
    await expect(foldPendingTerms(down as unknown as D1Database)).rejects.toThrow("D1 is down");
    expect(await pendingOf(b)).toEqual([["delta"]]);
    expect(await search(owner, "delta")).toEqual([b]);
    await cron("* * * * *");
    expect(await termsOf(b)).toContain("delta");
    expect(await pendingOf(b)).toEqual([]);
  });

  it("indexes messages stored before them, page by page up to the last one of the migration", async () => {
    const owner = await seedOwner();
    await fromBeforeTheShards(owner.organizationId); // its messages in D1's `messages`, as before the shards
    const id = await conversation(owner);
    const first = await storedBefore(owner, id, 50, "my accordion is out of tune");
    await storedBefore(owner, id, 51, "运费太贵了");
    const last = await storedBefore(owner, id, 52, "a note on the bassoon", 1);
    const later = await storedBefore(owner, id, 53, "clarinet"); // after the migration: the pipeline's
    expect(await search(owner, "accordion")).toEqual([]);
    await setBackfill(first - 1, last);

    expect(await backfillSearchTerms(env.DB, { pages: 1, size: 2 })).toBe(true);
    expect(await search(owner, "accordion")).toEqual([id]);
    expect(await search(owner, "运费")).toEqual([id]);
    expect(await search(owner, "bassoon")).toEqual([]);
    // The housekeeping cron goes on from there, private notes included, stops at the migration's last
    // message, and folds what it indexed.
    await runHousekeeping(env);
    expect(await search(owner, "bassoon")).toEqual([id]);
    expect(await search(owner, "clarinet")).toEqual([]);
    expect(await backfillSearchTerms(env.DB)).toBe(false);
    expect(later).toBeGreaterThan(last);
    expect(await pendingOf(id)).toEqual([]);
    // Each term once per conversation, stopwords and single characters left out.
    const terms = await termsOf(id);
    expect(terms).toEqual(
      expect.arrayContaining(["accordion", "bassoon", "note", "out", "tune", "运费", "费太", "太贵"]),
    );
    for (const left of ["my", "is", "of", "a", "on", "the", "运", "贵", "clarinet"]) expect(terms).not.toContain(left);
    expect(new Set(terms).size).toBe(terms.length);
  });

  it("removes terms no message brought for 90 days, sweeping the table in pages across runs", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const now = Date.now();
    const id = await conversation(owner);
    const theirs = await conversation(stranger);
    await settle();
    const [mine, others] = [await shardOf(owner), await shardOf(stranger)];
    const insert = (actor: Actor, shard: D1Database, conversationId: string, term: string, lastAt: number) =>
      shard
        .prepare(
          "INSERT INTO conversation_terms (organization_id, term, conversation_id, last_at) " +
            "VALUES (unhex(replace(?, '-', '')), ?, unhex(replace(?, '-', '')), ?)",
        )
        .bind(actor.organizationId, term, conversationId, lastAt)
        .run();
    await insert(owner, mine, id, "ancient", now - TERMS_KEPT_MS - 1);
    await insert(owner, mine, id, "archaic", now - TERMS_KEPT_MS - 60_000);
    await insert(owner, mine, id, "recent", now - TERMS_KEPT_MS + 60_000);
    await insert(stranger, others, theirs, "ancient", now - TERMS_KEPT_MS - 1);
    expect(await search(owner, "ancient")).toEqual([id]);

    // Small pages: the sweep needs several runs, each going on where the last stopped, and starts over at the end.
    let removed = 0;
    for (let run = 0; run < 1000 && (await termsOf(id)).includes("archaic"); run++)
      removed += await expireSearchTerms(mine, now, { pages: 1, size: 2 });
    expect(await termsOf(id)).toContain("recent");
    expect(await termsOf(id)).not.toContain("ancient");
    expect(await search(owner, "ancient")).toEqual([]);
    expect(await search(owner, "recent")).toEqual([id]);
    // The sweep goes round: the stranger's expired term goes too, on a later run if not yet.
    for (let run = 0; run < 1000 && (await termsOf(theirs)).includes("ancient"); run++)
      removed += await expireSearchTerms(others, now, { pages: 1, size: 2 });
    expect(await termsOf(theirs)).not.toContain("ancient");
    expect((await termsOf(theirs)).length).toBeGreaterThan(0); // the conversation's own, of today
    expect(removed).toBeGreaterThanOrEqual(3);

    // The housekeeping cron, its clock 90 days on: the conversation's own terms go as well.
    await runHousekeeping(env, now + TERMS_KEPT_MS + 86_400_000);
    expect(await termsOf(id)).toEqual([]);
    expect(await search(owner, "recent")).toEqual([]);
  });

  it("go with their organization, folded and pending", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const id = await conversation(owner, "a folded word");
    const theirs = await conversation(stranger, "a folded word");
    await settle();
    await say(owner, id, "a pending word");
    await say(stranger, theirs, "a pending word");
    expect(await termsOf(id)).toContain("folded");
    expect((await pendingOf(id)).flat()).toContain("pending");
    expect((await owner.fetch("DELETE", `/organizations/${owner.organizationId}/`)).status).toBe(204);
    expect(await termsOf(id)).toEqual([]);
    expect(await pendingOf(id)).toEqual([]);
    // A message's terms stored as it went are not folded back in.
    await pend(owner, id, Date.now(), ["late"]);
    await settle();
    expect(await termsOf(id)).toEqual([]);
    expect(await pendingOf(id)).toEqual([]);
    expect(await termsOf(theirs)).toEqual(expect.arrayContaining(["folded", "pending"]));
    expect(await search(stranger, "pending folded")).toEqual([theirs]);
  });
});
