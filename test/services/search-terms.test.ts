// Conversation search terms (services/conversation/search-terms.ts): written by the
// `conversation-terms` queue's consumer, many conversations at a time; messages stored before the
// terms existed indexed by housekeeping in pages; terms 90 days old removed.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seedOwner, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { uuidv7 } from "../../src/lib/ids";
import { runHousekeeping } from "../../src/services/housekeeping";
import {
  backfillSearchTerms,
  expireSearchTerms,
  sendTerms,
  TERMS_KEPT_MS,
  type TermsJob,
} from "../../src/services/conversation/search-terms";
import { consumeConversationTerms } from "../../src/queues/conversation-terms";
import { bodyOf } from "../support/api";
import { searchable } from "../support/search-terms";

const search = async (actor: Actor, keyword: string) => {
  const res = await actor.fetch("GET", `/conversations/?keyword=${encodeURIComponent(keyword)}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await bodyOf<"GET /conversations/">(res)).results.map((c) => c.id);
};

async function conversation(actor: Actor) {
  const bot = await createChatbot(actor);
  const res = await actor.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "hello" } });
  expect(res.status, await res.clone().text()).toBe(200);
  const { conversationId } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
  await searchable(conversationId, "hello");
  return conversationId;
}

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

const rowsOf = async (conversationId: string) =>
  (
    await env.DB.prepare(
      "SELECT term, last_at FROM conversation_terms WHERE conversation_id = unhex(replace(?, '-', '')) ORDER BY term",
    )
      .bind(conversationId)
      .all<{ term: string; last_at: number }>()
  ).results;
const termsOf = async (conversationId: string) => (await rowsOf(conversationId)).map((r) => r.term);

const job = (actor: Actor, conversationId: string, at: number, terms: string[]): TermsJob => ({
  organizationId: actor.organizationId,
  conversationId,
  at,
  terms,
});

describe("conversation search terms", () => {
  it("are written by the queue's consumer, many conversations at once, each term with its newest time", async () => {
    const owner = await seedOwner();
    const [a, b] = [await conversation(owner), await conversation(owner)];
    const jobs = [
      job(owner, a, 1000, ["alpha", "beta"]),
      job(owner, a, 2000, ["beta"]),
      job(owner, b, 1500, ["alpha"]),
    ];
    const batch = createMessageBatch<unknown>("conversation-terms", [
      { id: "two", timestamp: new Date(), attempts: 1, body: { jobs: jobs.slice(0, 2) } },
      { id: "one", timestamp: new Date(), attempts: 1, body: { jobs: jobs.slice(2) } },
      { id: "odd", timestamp: new Date(), attempts: 1, body: { jobs: [{ terms: "not a job" }] } },
    ]);
    const ctx = createExecutionContext();
    await consumeConversationTerms(batch, env);
    expect((await getQueueResult(batch, ctx)).ackAll).toBe(true);
    const mine = new Set(["alpha", "beta", "gamma"]);
    const rows = async (id: string) => (await rowsOf(id)).filter((r) => mine.has(r.term));
    expect(await rows(a)).toEqual([
      { term: "alpha", last_at: 1000 },
      { term: "beta", last_at: 2000 },
    ]);
    expect(await rows(b)).toEqual([{ term: "alpha", last_at: 1500 }]);
    // Delivered again, or late: a time never goes back.
    await consumeConversationTerms(
      createMessageBatch("conversation-terms", [
        { id: "again", timestamp: new Date(), attempts: 2, body: { jobs: [job(owner, a, 500, ["beta", "gamma"])] } },
      ]),
      env,
    );
    expect(await rows(a)).toEqual([
      { term: "alpha", last_at: 1000 },
      { term: "beta", last_at: 2000 },
      { term: "gamma", last_at: 500 },
    ]);

    // D1 failing: the whole batch is retried, later each time.
    const failing = createMessageBatch("conversation-terms", [
      { id: "f", timestamp: new Date(), attempts: 3, body: { jobs: [job(owner, b, 3000, ["delta"])] } },
    ]);
    const down = {
      ...env,
      DB: { prepare: (q: string) => env.DB.prepare(q), batch: () => Promise.reject(new Error("D1 is down")) },
    };
    const failingCtx = createExecutionContext();
    await consumeConversationTerms(failing, down as unknown as typeof env);
    expect(await getQueueResult(failing, failingCtx)).toMatchObject({
      ackAll: false,
      retryBatch: { retry: true },
    });
    expect(await termsOf(b)).not.toContain("delta");
  });

  it("the queue refusing them, are written at once rather than lost", async () => {
    const owner = await seedOwner();
    const id = await conversation(owner);
    const refusing = { send: () => Promise.reject(new Error("queue unavailable")) } as unknown as Queue;
    await sendTerms({ TERMS_QUEUE: refusing, DB: env.DB }, [job(owner, id, Date.now(), ["zither"])]);
    expect(await search(owner, "zither")).toEqual([id]);
    // Many conversations' jobs go in as few messages as hold them, each under the queue's 128 kB.
    const sent: string[] = [];
    const recording = { send: async (body: unknown) => void sent.push(JSON.stringify(body)) } as unknown as Queue;
    const long = Array.from({ length: 200 }, (_, i) => `${"長".repeat(60)}${i}`);
    await sendTerms({ TERMS_QUEUE: recording, DB: env.DB }, [
      job(owner, id, 1, ["a1"]),
      ...Array(6).fill(job(owner, id, 2, long)),
    ]);
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.length).toBeLessThan(7);
    for (const body of sent) expect(new TextEncoder().encode(body).length).toBeLessThan(128_000);
    expect(sent.flatMap((body) => JSON.parse(body).jobs)).toHaveLength(7);
  });

  it("indexes messages stored before them, page by page up to the last one of the migration", async () => {
    const owner = await seedOwner();
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
    // The housekeeping cron goes on from there, private notes included, and stops at the migration's last message.
    await runHousekeeping(env);
    expect(await search(owner, "bassoon")).toEqual([id]);
    expect(await search(owner, "clarinet")).toEqual([]);
    expect(await backfillSearchTerms(env.DB)).toBe(false);
    expect(later).toBeGreaterThan(last);
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
    const insert = (organizationId: string, conversationId: string, term: string, lastAt: number) =>
      env.DB.prepare(
        "INSERT INTO conversation_terms (organization_id, term, conversation_id, last_at) " +
          "VALUES (unhex(replace(?, '-', '')), ?, unhex(replace(?, '-', '')), ?)",
      )
        .bind(organizationId, term, conversationId, lastAt)
        .run();
    await insert(owner.organizationId, id, "ancient", now - TERMS_KEPT_MS - 1);
    await insert(owner.organizationId, id, "archaic", now - TERMS_KEPT_MS - 60_000);
    await insert(owner.organizationId, id, "recent", now - TERMS_KEPT_MS + 60_000);
    await insert(stranger.organizationId, theirs, "ancient", now - TERMS_KEPT_MS - 1);
    expect(await search(owner, "ancient")).toEqual([id]);

    // Small pages: the sweep needs several runs, each going on where the last stopped, and starts over at the end.
    let removed = 0;
    for (let run = 0; run < 1000 && (await termsOf(id)).includes("archaic"); run++)
      removed += await expireSearchTerms(env.DB, now, { pages: 1, size: 2 });
    expect(await termsOf(id)).toContain("recent");
    expect(await termsOf(id)).not.toContain("ancient");
    expect(await search(owner, "ancient")).toEqual([]);
    expect(await search(owner, "recent")).toEqual([id]);
    // The sweep goes round: the stranger's expired term goes too, on a later run if not yet.
    for (let run = 0; run < 1000 && (await termsOf(theirs)).includes("ancient"); run++)
      removed += await expireSearchTerms(env.DB, now, { pages: 1, size: 2 });
    expect(await termsOf(theirs)).not.toContain("ancient");
    expect((await termsOf(theirs)).length).toBeGreaterThan(0); // the conversation's own, of today
    expect(removed).toBeGreaterThanOrEqual(3);

    // The housekeeping cron, its clock 90 days on: the conversation's own terms go as well.
    await runHousekeeping(env, now + TERMS_KEPT_MS + 86_400_000);
    expect(await termsOf(id)).toEqual([]);
    expect(await search(owner, "recent")).toEqual([]);
  });

  it("go with their organization", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const id = await conversation(owner);
    const theirs = await conversation(stranger);
    expect((await termsOf(id)).length).toBeGreaterThan(0);
    expect((await owner.fetch("DELETE", `/organizations/${owner.organizationId}/`)).status).toBe(204);
    expect(await termsOf(id)).toEqual([]);
    // Terms still queued when it went are not written back.
    const late = {
      id: "late",
      timestamp: new Date(),
      attempts: 1,
      body: { jobs: [job(owner, id, Date.now(), ["late"])] },
    };
    await consumeConversationTerms(createMessageBatch("conversation-terms", [late]), env);
    expect(await termsOf(id)).toEqual([]);
    expect((await termsOf(theirs)).length).toBeGreaterThan(0);
  });
});
