// The conversation object's message store (durable-objects/conversation-store.ts) for an organization from before
// the shards, whose data plane is still `DB`: such an organization has no parts (services/shards/parts.ts reads none
// for it, and `addDataPart` refuses it), so this file runs one-part only (`ONE_PART_TESTS` in vitest.config.ts); the
// store's other tests are in conversation-store.test.ts.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { conversationObject } from "../../src/services/conversations";
import { createChatbot } from "../fixtures/chatbots";
import { messagesInD1, seedOwner, type Actor } from "../harness";
import { bodyOf } from "../support/api";

/** A conversation whose first turn the worker stored (a direct completion). */
async function workerConversation(owner: Actor) {
  const bot = await createChatbot(owner);
  const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "start" } });
  expect(res.status, await res.clone().text()).toBe(200);
  return { id: (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId };
}

const listed = async (owner: Actor, conversationId: string) =>
  (await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${conversationId}&pageSize=100`)))
    .results;

describe("the conversation object's store, for an organization from before the shards", () => {
  it("keeps in D1 the messages the search terms' backfill has yet to index, until it has", async () => {
    const owner = await seedOwner();
    // The backfill indexes the messages `DB` held before migration 0029: an organization from before the shards.
    await env.DB.prepare("UPDATE organization_shards SET data_plane = 'db' WHERE organization_id = ?1")
      .bind(owner.organizationId)
      .run();
    const { id } = await workerConversation(owner);
    const { results } = await env.DB.prepare("SELECT rowid FROM messages WHERE conversation_id = ? ORDER BY rowid")
      .bind(id)
      .all<{ rowid: number }>();
    const saved = await env.DB.prepare("SELECT position FROM conversation_terms_cursors WHERE id = 'backfill'").first();
    const cursor = (after: number, through: number) =>
      env.DB.prepare(
        "INSERT INTO conversation_terms_cursors (id, position) VALUES ('backfill', ?1) " +
          "ON CONFLICT (id) DO UPDATE SET position = excluded.position",
      )
        .bind(JSON.stringify({ after, through }))
        .run();
    // The backfill has indexed the first of the two rows, not the second.
    await cursor(results[0].rowid, results[1].rowid);
    try {
      expect(await listed(owner, id)).toHaveLength(2);
      expect(await messagesInD1(id)).toBe(1);
    } finally {
      if (saved) await cursor(...(Object.values(JSON.parse(String(saved.position))) as [number, number]));
      else await env.DB.prepare("DELETE FROM conversation_terms_cursors WHERE id = 'backfill'").run();
    }
    await conversationObject(env, id).takeOver(owner.organizationId, id);
    expect(await messagesInD1(id)).toBe(0);
  });
});
