// An organization's data plane lives in its shard (docs/scale.md §5 step 4; src/db/planes.ts): what its visitors,
// assistants and deliveries write lands there and nowhere else, and every read (lists, one conversation, search,
// statistics, records) answers from there, one organization never seeing another's.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { organizationShards } from "../../src/db/schema";
import { SHARDS, shardDb, type ShardName } from "../../src/services/shards";
import { runTermsCron } from "../../src/services/conversation/search-terms";
import { countRows, type Actor, db, seedOwner } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { bodyOf } from "../support/api";

/** The organization's rows of `table` in each store, `DB` first. */
async function rowsIn(table: string, organizationId: string) {
  const stores: [string, D1Database][] = [
    ["DB", env.DB],
    ...SHARDS.map((s) => [s, shardDb(env, s)] as [string, D1Database]),
  ];
  const counts: Record<string, number> = {};
  for (const [name, d1] of stores)
    counts[name] = await countRows(d1, `${table} WHERE organization_id = ?1`, organizationId);
  return counts;
}

async function placedIn(shard: ShardName) {
  const owner = await seedOwner();
  const [row] = await db()
    .select()
    .from(organizationShards)
    .where(eq(organizationShards.organizationId, owner.organizationId));
  expect(row).toMatchObject({ dataPlane: "shard" });
  // Put it where the test wants it before it writes anything (as a new organization is placed by a hash).
  await db()
    .update(organizationShards)
    .set({ shard })
    .where(eq(organizationShards.organizationId, owner.organizationId));
  return owner;
}

async function converse(owner: Actor, words: string) {
  const bot = await createChatbot(owner);
  expect((await owner.fetch("POST", "/contacts/", { name: `Visitor ${words}` })).status).toBe(201);
  const first = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
    await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: `Hello ${words}` } }),
  );
  await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
    conversation: first.conversationId,
    message: { content: `And ${words} again` },
  });
  return { bot, conversationId: first.conversationId };
}

describe("an organization's data plane in its shard", () => {
  it("lands in the organization's shard, none in DB or the other shard", async () => {
    const [one, two] = SHARDS;
    const a = await placedIn(one);
    const b = await placedIn(two);
    await converse(a, "apricot");
    await converse(b, "blueberry");
    for (const table of ["conversations", "contacts", "chatbot_records", "chatbot_words", "usage_hourly"]) {
      expect(await rowsIn(table, a.organizationId), `${table} of a`).toMatchObject({ DB: 0, [two]: 0 });
      expect((await rowsIn(table, a.organizationId))[one], `${table} of a`).toBeGreaterThan(0);
      expect(await rowsIn(table, b.organizationId), `${table} of b`).toMatchObject({ DB: 0, [one]: 0 });
      expect((await rowsIn(table, b.organizationId))[two], `${table} of b`).toBeGreaterThan(0);
    }
  });

  it("answers lists, one conversation, search, statistics and records from there, each its own", async () => {
    const [one, two] = SHARDS;
    const a = await placedIn(one);
    const b = await placedIn(two);
    const ours = await converse(a, "cranberry");
    const theirs = await converse(b, "damson");
    await runTermsCron(env);

    const list = await bodyOf<"GET /conversations/">(await a.fetch("GET", "/conversations/"));
    expect(list.results.map((c) => c.id)).toEqual([ours.conversationId]);
    const found = await bodyOf<"GET /conversations/">(await a.fetch("GET", "/conversations/?keyword=cranberry"));
    expect(found.results.map((c) => c.id)).toEqual([ours.conversationId]);
    expect(
      (await bodyOf<"GET /conversations/">(await a.fetch("GET", "/conversations/?keyword=damson"))).results,
    ).toEqual([]);
    expect((await a.fetch("GET", `/conversations/${theirs.conversationId}/`)).status).toBe(404);
    const view = await bodyOf<"GET /conversations/{id}/">(
      await a.fetch("GET", `/conversations/${ours.conversationId}/`),
    );
    expect(view).toMatchObject({ id: ours.conversationId, chatbot: { id: ours.bot.id } });

    const messages = await bodyOf<"GET /messages/">(
      await a.fetch("GET", `/messages/?conversation=${ours.conversationId}`),
    );
    expect(messages.results).toHaveLength(4);

    const stats = await bodyOf<"GET /chatbots/{chatbotPk}/statistics/">(
      await a.fetch("GET", `/chatbots/${ours.bot.id}/statistics/`),
    );
    expect(stats.total).toMatchObject({ conversationsCount: 1, incomingMessagesCount: 2, outgoingMessagesCount: 2 });
    const today = new Date().toISOString().slice(0, 10);
    const records = await bodyOf<"GET /chatbots/{chatbotPk}/records/">(
      await a.fetch("GET", `/chatbots/${ours.bot.id}/records/?startDate=${today}&endDate=${today}`),
    );
    expect(records.results).toHaveLength(2);
    const contacts = await bodyOf<"GET /contacts/">(await a.fetch("GET", "/contacts/"));
    expect(contacts.results).toHaveLength(1);
  });
});
