import { beforeAll, describe, expect, it } from "vitest";
import { seedOwner, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { createKnowledgeBase, ingest } from "../../fixtures/knowledge";
import { makePdf } from "../../fixtures/documents";
import { bodyOf } from "../../support/api";

/**
 * How the built-in local model composes an answer (docs/decisions.md, "The built-in model's answer
 * composition"), through the real stack: PDFs parsed and chunked, retrieval (keyword, local vectors,
 * rerank, the sentence window), the reply stored. The handbook is set as docs/handbook.pdf is: its
 * titles in the body's font size, so the parser runs each into the sentence after it.
 */
const HANDBOOK = [
  [
    "Acme Customer Handbook",
    "",
    "Warranty",
    "Every Acme product comes with a two-year warranty from the date of purchase. The warranty covers defects " +
      "in materials and workmanship. It does not cover damage from accidents, misuse or normal wear. To make a " +
      "claim, contact support with your order number; we repair or replace the product free of charge.",
    "",
    "Returns",
    "You may return any unused product within 30 days of delivery for a full refund. Return shipping is free " +
      "within the country.",
  ].join("\n"),
  [
    "Shipping",
    "We ship to every country in the European Union and to the United Kingdom. Orders placed before 2 pm " +
      "leave our warehouse the same working day. Delivery abroad takes three to five working days.",
    "",
    "Opening hours",
    "Our shop opens at 9 am and closes at 6 pm from Monday to Saturday. Support answers by e-mail and chat " +
      "during the same hours.",
  ].join("\n"),
];
const RENTALS = [
  [
    "Rentals and Workshop",
    "",
    "Bike rental",
    "We rent city bikes and e-bikes by the day. A city bike costs 15 euros per day. A deposit of 50 euros is " +
      "required for each bike.",
    "",
    "Lockers",
    "We rent lockers at the station by the day. A deposit of 10 euros is required for each locker key.",
    "",
    "Workshop",
    "The workshop is at 12 Harbour Street, Rotterdam, next to the ferry terminal. Repairs are usually done " +
      "within two working days.",
  ].join("\n"),
];
const ZH = [
  "顧客須知",
  "",
  "門市地址",
  "門市位於鹿特丹港口街12號，渡輪碼頭旁邊。",
  "",
  "營業時間",
  "門市營業時間為週一至週六上午九點到下午六點。",
].join("\n");

let owner: Actor;
let botId: string;

beforeAll(async () => {
  owner = await seedOwner();
  const kb = await createKnowledgeBase(owner);
  await ingest(owner, kb.id, [
    { name: "handbook.pdf", content: await makePdf(HANDBOOK), type: "application/pdf" },
    { name: "rentals.pdf", content: await makePdf(RENTALS), type: "application/pdf" },
    { name: "kunden.txt", content: ZH },
  ]);
  botId = (
    await createChatbot(owner, { knowledgeBases: [{ id: kb.id }], instructions: "Answer from the Acme handbook." })
  ).id;
}, 60_000);

/** The reply to `content` in a new conversation, or in `conversation`. */
async function ask(content: string, conversation?: string) {
  const res = await owner.fetch("POST", `/chatbots/${botId}/completions/`, {
    message: { content },
    ...(conversation ? { conversation } : {}),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
}
const reply = async (content: string) => (await ask(content)).content;
const sentencesOf = (text: string) => text.split(/(?<=[.!?])\s+|(?<=[。！？])/u).filter(Boolean);

describe("the built-in local model's answers read like answers", () => {
  it("quotes sentences, never a title, nor a title run into its first sentence", async () => {
    const warranty = await reply("How long is the warranty?");
    expect(warranty).toMatch(/^Every Acme product comes with a two-year warranty from the date of purchase\./);
    for (const answer of [warranty, await reply("Can I return a product?"), await reply("When are you open?")]) {
      expect(answer).not.toMatch(
        /\b(?:Warranty|Returns|Shipping|Opening hours|Acme Customer Handbook) (?:Every|You|We|Our)\b/,
      );
      for (const s of sentencesOf(answer))
        expect(["Warranty", "Returns", "Shipping", "Opening hours"]).not.toContain(s);
    }
  });

  it("says first the sentence that answers, not the one that comes first in the document", async () => {
    // The returns paragraph comes first and speaks of delivery too ("within 30 days of delivery").
    expect(await reply("How long does delivery to Germany take?")).toMatch(
      /^Delivery abroad takes three to five working days\./,
    );
  });

  it("reads a follow-up with the previous question of the conversation", async () => {
    const bikes = await ask("Do you rent bikes?");
    expect((await ask("How much is the deposit?", bikes.conversationId)).content).toMatch(
      /^A deposit of 50 euros is required for each bike\./,
    );
    const lockers = await ask("Do you rent lockers?");
    expect((await ask("How much is the deposit?", lockers.conversationId)).content).toMatch(
      /^A deposit of 10 euros is required for each locker key\./,
    );
  });

  it("finds a paraphrase that shares no word with its passage, in English and Chinese", async () => {
    expect(await reply("What is your address?")).toMatch(/^The workshop is at 12 Harbour Street, Rotterdam/);
    expect(await reply("Where are you located?")).toMatch(/^The workshop is at 12 Harbour Street/);
    expect(await reply("你們在哪裡？")).toMatch(/^門市位於鹿特丹港口街12號/);
  });

  it("says plainly that it does not know when the sources do not answer, never a nearby fact", async () => {
    // "number" is in the warranty's claim sentence ("your order number"): a nearby fact, not an answer.
    expect(await reply("Do you have a phone number?")).toBe("I don't know the answer to that from my sources.");
    expect(await reply("Do you sell gift cards?")).toBe("I don't know the answer to that from my sources.");
    expect(await reply("可以用比特幣付款嗎？")).toBe("我的資料裡沒有這個問題的答案。");
  });

  it("says no sentence twice and nothing unrelated: the answer, and the sentence that continues it", async () => {
    // The sentence window repeats the warranty paragraph in both pages' passages.
    expect(await reply("What does the warranty cover?")).toBe(
      "The warranty covers defects in materials and workmanship. It does not cover damage from accidents, " +
        "misuse or normal wear.",
    );
    expect(await reply("How long do repairs take?")).toBe("Repairs are usually done within two working days.");
  });

  it("answers a yes/no question with Yes or No where the source says so", async () => {
    expect(await reply("Do you ship to the United States?")).toBe(
      "No, we ship to every country in the European Union and to the United Kingdom.",
    );
    expect(await reply("Do you ship to Germany?")).toMatch(/^Yes, we ship to every country in the European Union/);
    expect(await reply("Is return shipping free?")).toBe("Yes, return shipping is free within the country.");
    // Partly answered: the sentence alone, no guess.
    expect(await reply("Do you rent tandems?")).not.toMatch(/^(?:Yes|No),/);
  });

  it("answers small talk as such, in English and Traditional Chinese", async () => {
    expect(await reply("Thanks, bye!")).toBe("You're welcome! Goodbye, and have a nice day!");
    expect(await reply("Are you a bot?")).toMatch(/^I'm an automated assistant/);
    expect(await reply("謝謝！")).toBe("不客氣！還有什麼可以幫您的嗎？");
    expect(await reply("再見")).toBe("再見，祝您有美好的一天！");
    expect(await reply("你是機器人嗎？")).toMatch(/^我是自動回覆的助理/);
  });

  it("answers a request for a person with the assistant's hand-off (services/conversation/handoff.ts)", async () => {
    expect(await reply("I need to talk to a person about order 4471")).toBe(
      "I'll pass you to a member of our team, who will reply here as soon as they can.",
    );
    expect(await reply("human please")).toBe(
      "I'll pass you to a member of our team, who will reply here as soon as they can.",
    );
    expect(await reply("轉真人")).toBe("我會請團隊成員來協助您，他們會盡快在這裡回覆。");
    // In Simplified characters, Simplified; in characters both scripts write alike, Traditional.
    expect(await reply("请帮我转人工")).toBe("我会请团队成员来协助您，他们会尽快在这里回复。");
    expect(await reply("我要找真人客服")).toBe("我會請團隊成員來協助您，他們會盡快在這裡回覆。");
  });
});
