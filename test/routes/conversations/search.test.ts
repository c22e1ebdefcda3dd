import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { contacts } from "../../../src/db/schema";
import { conversationData, data, seedOwner, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { bodyOf } from "../../support/api";

/**
 * A message `content` (from `sender` when given) answered by the local assistant, in `conversation` or
 * a new one; returns its conversation (searchable at once).
 */
async function said(
  actor: Actor,
  bot: { id: string },
  content: string,
  init: { sender?: string; conversation?: string } = {},
) {
  const res = await actor.fetch("POST", `/chatbots/${bot.id}/completions/`, {
    ...(init.conversation ? { conversation: init.conversation } : {}),
    message: { content, ...(init.sender ? { sender: init.sender } : {}) },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const { conversationId } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
  return conversationId;
}
const started = (actor: Actor, bot: { id: string }, content: string, sender?: string) =>
  said(actor, bot, content, { sender });

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
    await said(owner, bot, "the kettle arrived broken", { conversation: later });

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
    // Terms keep no punctuation: quotes are not syntax, the word is "kettle".
    expect(await search(owner, '"kettle"')).toEqual([later, refund]);
  });

  it("searches one word over the 50 bytes D1 allows a LIKE pattern (a Chinese question, a pasted link)", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const question = "我想查询一下我的订单现在的物流状态";
    const link = "https://shop.example.com/orders/123456/tracking?x=1";
    const chinese = await started(owner, bot, question);
    const linked = await started(owner, bot, `Where is my parcel? ${link}`);
    expect(await search(owner, question)).toEqual([chinese]);
    expect(await search(owner, link)).toEqual([linked]);
  });

  it("matches the start of words, Chinese and Japanese by pairs of characters, and leaves stopwords out", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const english = await started(owner, bot, "hello");
    await said(owner, bot, "Your Deliveries of marmalade were late", { conversation: english });
    const japanese = await started(owner, bot, "パスワードを忘れました。配送状況を確認したいです");
    const chinese = await started(owner, bot, "请帮我查一下订单物流信息");

    expect(await search(owner, "deliveries")).toEqual([english]);
    expect(await search(owner, "deliv")).toEqual([english]); // the start of a word
    expect(await search(owner, "marmalades")).toEqual([]); // longer than the word
    // Not the middle of a word (the trigram index, before terms, found substrings anywhere).
    expect(await search(owner, "iveries")).toEqual([]);
    expect(await search(owner, "パスワード")).toEqual([japanese]);
    expect(await search(owner, "配送状況")).toEqual([japanese]);
    expect(await search(owner, "確認")).toEqual([japanese]);
    expect(await search(owner, "状況確認")).toEqual([]); // not in the text: 況確 is no pair of it
    expect(await search(owner, "订单物流")).toEqual([chinese]);
    expect(await search(owner, "物流 marmalade")).toEqual([]);
    // Stopwords are no terms: the other words decide.
    expect(await search(owner, "where were the deliveries")).toEqual([english]);
  });

  it("finds a contact's name in whichever Unicode form it was typed or stored (composed or decomposed)", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const contact = await bodyOf<"POST /contacts/">(
      await owner.fetch("POST", "/contacts/", { name: "Renée Noël", inboxes: [{ id: bot.defaultInbox!.id }] }),
    );
    const id = await started(owner, bot, "hi there", contact.id);
    expect(await search(owner, "noël".normalize("NFD")), "typed decomposed").toEqual([id]);
    expect(await search(owner, "oë".normalize("NFD")), "shorter than a trigram composed").toEqual([id]);
    // Stored before names were kept in NFC, as a Mac's input gave it: decomposed, where the conversation reads it.
    const name = "Renée Noël".normalize("NFD");
    for (const plane of new Set([await data(owner.organizationId), await conversationData(owner.organizationId, id)]))
      await plane.update(contacts).set({ name }).where(eq(contacts.id, contact.id));
    expect(await search(owner, "noël".normalize("NFC")), "stored decomposed").toEqual([id]);
    expect(await search(owner, "oë".normalize("NFC")), "stored decomposed").toEqual([id]);
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

  it("includes the team's private notes", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const id = await started(owner, bot, "hello");
    const res = await owner.fetch("POST", "/messages/outgoing/", {
      conversation: id,
      content: "customer is a wombat breeder",
      private: true,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await search(owner, "wombat")).toEqual([id]);
    expect(await search(owner, "breed")).toEqual([id]);
  });
});
