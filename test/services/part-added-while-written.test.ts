// A part added to an organization's data plane while its conversations are being written (services/shards/parts.ts,
// `addDataPart`, which `scripts/move-organization.mjs <organization> --add-part` mirrors; docs/scale.md §5, "One
// organization over several shards"): writers keep starting conversations and answering in old ones through the API
// across the part's start. Nothing is lost, each conversation lives in the one shard its id's time names, a contact
// is copied where its conversations are, and every list, search and count answers for both parts.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SHARDS, shardDb } from "../../src/services/shards";
import { addDataPart, PART_LEAD_MS, partOf, uuidv7Time } from "../../src/services/shards/parts";
import { planeState } from "../../src/services/shards/plane-router";
import { type Actor, seedOwner } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { bodyOf, type Body, type Operation } from "../support/api";

const WRITERS = 3;
const LEAD_MS = 3_000;

/** The body of operation `K`'s answer to `path` (a GET), once its status is 200. */
async function read<K extends Operation>(actor: Actor, path: string): Promise<Body<K>> {
  const res = await actor.fetch("GET", path);
  expect(res.status, await res.clone().text()).toBe(200);
  return bodyOf<K>(res);
}

/** The shards holding a conversation's row. */
async function holders(id: string) {
  const found = await Promise.all(
    SHARDS.map(async (name) =>
      (await shardDb(env, name).prepare("SELECT 1 FROM conversations WHERE id = ?1").bind(id).first()) ? name : null,
    ),
  );
  return found.filter(Boolean);
}

describe("a part added while conversations are written", () => {
  it("loses nothing: each conversation in its part, lists, search, messages and counts over both", async () => {
    const owner = await seedOwner();
    const org = owner.organizationId;
    const bot = await createChatbot(owner);
    const contact = await bodyOf<"POST /contacts/">(await owner.fetch("POST", "/contacts/", { name: "Grace" }));
    const turns = new Map<string, number>();
    const talk = async (content: string, conversation?: string) => {
      const body = { message: { content, ...(conversation ? {} : { sender: contact.id }) }, conversation };
      const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, body);
      expect(res.status, await res.clone().text()).toBe(200);
      const { conversationId } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
      turns.set(conversationId, (turns.get(conversationId) ?? 0) + 1);
      return conversationId;
    };

    let from = Number.POSITIVE_INFINITY;
    const sincePart = () => [...turns.keys()].filter((id) => uuidv7Time(id)! >= from);
    // Each writer starts a conversation about parcels, answers in it, and once in a while in the first one of all.
    let stop = false;
    const writer = async (n: number) => {
      // Paced, within the key's requests a minute (1,200) however long adding the part takes; at most 100 rounds, and
      // none once another writer failed (its error is the test's).
      for (let i = 0; !stop && (sincePart().length < 2 * WRITERS || i < 2) && i < 100; i++) {
        const id = await talk(`parcel ${n}.${i}`);
        await talk(`and the invoice ${n}.${i}`, id);
        if (i % 2) await talk(`still waiting ${n}.${i}`, [...turns.keys()][0]);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const writing = Promise.all(
      Array.from({ length: WRITERS }, (_, n) =>
        writer(n).finally(() => {
          stop = true;
        }),
      ),
    );
    // The part starts a few seconds after the newest conversation yet (the servers' ids may run ahead of this clock):
    // more than adding it takes on a loaded machine, as PART_LEAD_MS is more than every isolate's memory of the
    // directory in a deployment. Conversations keep being made meanwhile, in the organization's shard.
    while (turns.size < WRITERS) await new Promise((resolve) => setTimeout(resolve, 10));
    const { shard: home } = await planeState(env, org, true);
    const other = SHARDS.find((s) => s !== home)!;
    const start = Math.max(Date.now(), ...[...turns.keys()].map((id) => uuidv7Time(id)!)) + LEAD_MS;
    await addDataPart(env, org, other, start, start - PART_LEAD_MS);
    expect(Date.now(), "the part was added before its start").toBeLessThan(start);
    from = start;
    await writing;

    const ids = [...turns.keys()];
    const parts = (await planeState(env, org)).parts;
    for (const id of ids) expect(await holders(id)).toEqual([partOf(home, parts, id)]);
    const later = sincePart();
    expect(later.length).toBeGreaterThanOrEqual(2 * WRITERS);
    expect(ids.length - later.length).toBeGreaterThanOrEqual(WRITERS);

    // Every conversation listed once, newest first, and every turn's two messages in each.
    const listed: string[] = [];
    let page = await read<"GET /conversations/">(owner, "/conversations/?pageSize=7");
    listed.push(...page.results.map((r) => r.id));
    while (page.next) {
      page = await read<"GET /conversations/">(owner, page.next.replace(/^https?:\/\/[^/]+\/api\/v1/, ""));
      listed.push(...page.results.map((r) => r.id));
    }
    expect(listed).toEqual([...ids].sort().reverse());
    for (const id of ids) {
      const messages = await read<"GET /messages/">(owner, `/messages/?conversation=${id}&pageSize=100`);
      expect(messages.results).toHaveLength(2 * turns.get(id)!);
    }

    // Every conversation started about a parcel, found by its search terms in either part; the contact copied where
    // its conversations are, and its change written to the copy; the assistant's figures adding both parts.
    const found = await read<"GET /conversations/">(owner, "/conversations/?keyword=parcel&pageSize=100");
    expect(found.results.map((r) => r.id).sort()).toEqual([...ids].sort());
    const copy = await shardDb(env, other).prepare("SELECT name FROM contacts WHERE id = ?1").bind(contact.id).first();
    expect(copy).toEqual({ name: "Grace" });
    const renamed = await owner.fetch("PATCH", `/contacts/${contact.id}/`, { name: "Grace H." });
    expect(renamed.status).toBe(200);
    const copied = await shardDb(env, other)
      .prepare("SELECT name FROM contacts WHERE id = ?1")
      .bind(contact.id)
      .first();
    expect(copied).toEqual({ name: "Grace H." });
    const listedOne = await read<"GET /conversations/">(owner, "/conversations/?pageSize=1");
    expect(listedOne.results[0].contact?.name).toBe("Grace H.");
    const refused = await owner.fetch("DELETE", `/contacts/${contact.id}/`);
    expect(refused.status).toBe(400);

    const statistics = await read<"GET /chatbots/{chatbotPk}/statistics/">(owner, `/chatbots/${bot.id}/statistics/`);
    const allTurns = [...turns.values()].reduce((a, b) => a + b, 0);
    expect(statistics.total).toMatchObject({
      conversationsCount: ids.length,
      incomingMessagesCount: allTurns,
      repliesCount: allTurns,
      contactsCount: 1,
    });
  });
});
