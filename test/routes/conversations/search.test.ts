import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seedOwner, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { uuidv7 } from "../../../src/lib/ids";
import { bodyOf } from "../../support/api";

/** A conversation begun by `content` (from `sender` when given), answered by the local assistant. */
async function started(actor: Actor, bot: { id: string }, content: string, sender?: string) {
  const res = await actor.fetch("POST", `/chatbots/${bot.id}/completions/`, {
    message: { content, ...(sender ? { sender } : {}) },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId;
}

const search = async (actor: Actor, keyword: string, extra = "") => {
  const res = await actor.fetch("GET", `/conversations/?keyword=${encodeURIComponent(keyword)}${extra}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await bodyOf<"GET /conversations/">(res)).results.map((c) => c.id);
};

describe("GET /conversations/?keyword= (full-text)", () => {
  it("finds English words, Chinese substrings, contact names and every word of several, ignoring case", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const contact = await bodyOf<"POST /contacts/">(
      await owner.fetch("POST", "/contacts/", { name: "Zelda Quartermaine", inboxes: [{ id: bot.defaultInbox!.id }] }),
    );
    const refund = await started(owner, bot, "I want a Refund for my broken kettle");
    const chinese = await started(owner, bot, "請問你們的退貨政策是什麼？");
    const named = await started(owner, bot, "hi there", contact.id);
    const later = await started(owner, bot, "where is my parcel");
    await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      conversation: later,
      message: { content: "the kettle arrived broken" },
    });

    expect(await search(owner, "refund")).toEqual([refund]);
    expect(await search(owner, "KETTLE")).toEqual([later, refund]);
    expect(await search(owner, "退貨政策")).toEqual([chinese]);
    expect(await search(owner, "貨政")).toEqual([chinese]); // two characters: the LIKE fallback
    expect(await search(owner, "quarterm")).toEqual([named]);
    expect(await search(owner, "zelda quartermaine")).toEqual([named]);
    // Every word, anywhere in the conversation (two different messages here).
    expect(await search(owner, "parcel kettle")).toEqual([later]);
    expect(await search(owner, "refund parcel")).toEqual([]);
    // Combined with the other filters.
    expect(await search(owner, "kettle", `&contact=${contact.id}`)).toEqual([]);
    expect(await search(owner, "kettle", "&pageSize=1")).toEqual([later]);
    // Query syntax is plain text, never an error.
    for (const odd of ['"kettle', "kettle*", "NEAR(kettle refund)", "a OR b", "-kettle", "%_\\'", "kettle:"])
      expect(await search(owner, odd), odd).toBeInstanceOf(Array);
    expect(await search(owner, '"kettle"')).toEqual([]);
  });

  it("one organization never finds another's conversations", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const [mine, theirs] = [await createChatbot(owner), await createChatbot(stranger)];
    const id = await started(owner, mine, "confidential xylophone order");
    await started(stranger, theirs, "another xylophone order");
    expect(await search(owner, "xylophone")).toEqual([id]);
    expect((await search(stranger, "confidential")).length).toBe(0);
    expect(await search(stranger, "xylophone")).not.toContain(id);
  });

  it("includes the team's private notes; the index follows edits and deletions, keeps no text copy", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const id = await started(owner, bot, "hello");
    // A private note as the notes endpoint stores it (a message row with `private`): through the triggers of migration
    // 0026.
    const note = uuidv7();
    await env.DB.prepare(
      "INSERT INTO messages (id, organization_id, conversation_id, sequence, type, sender_type, content, " +
        "private, created_at) VALUES (?, ?, ?, 100, 'outgoing', 'user', ?, 1, ?)",
    )
      .bind(note, owner.organizationId, id, "customer is a wombat breeder", Date.now())
      .run();
    expect(await search(owner, "wombat")).toEqual([id]);
    await env.DB.prepare("UPDATE messages SET content = 'customer breeds platypus' WHERE id = ?").bind(note).run();
    expect(await search(owner, "wombat")).toEqual([]);
    expect(await search(owner, "platypus")).toEqual([id]);
    // Contentless: the index answers rowids only, the text stays in messages.
    const indexed = await env.DB.prepare(
      "SELECT rowid, content FROM messages_fts WHERE messages_fts MATCH 'platypus'",
    ).all<{ rowid: number; content: string | null }>();
    expect(indexed.results).toHaveLength(1);
    expect(indexed.results[0].content).toBeNull();
    await env.DB.prepare("DELETE FROM messages WHERE id = ?").bind(note).run();
    expect(await search(owner, "platypus")).toEqual([]);
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'platypus'").first<{
        n: number;
      }>())!.n,
    ).toBe(0);
  });
});
