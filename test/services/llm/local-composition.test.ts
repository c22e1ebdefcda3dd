import { describe, expect, it } from "vitest";
import { smallTalkReply } from "../../../src/services/llm/local-small-talk";
import { asksForPerson } from "../../../src/services/conversation/handoff";
import { isFollowUp, retrievalQuery } from "../../../src/services/llm/local-context";
import { conceptsIn } from "../../../src/services/llm/local-concepts";
import { passageSentences } from "../../../src/services/llm/local-sentences";
import { isYesNo } from "../../../src/services/llm/local-yes-no";
import { extract } from "../../../src/services/llm/local";

/** The pieces of the built-in model's answer composition (docs/decisions.md, "The built-in model's answer
 * composition"). */
describe("the local model's answer composition", () => {
  it("asksForPerson: a request for a person, not a question about what we are", () => {
    for (const text of [
      "I need to talk to a person about order 4471",
      "human please",
      "Can I speak to someone?",
      "connect me to an agent",
      "I want a real person",
      "轉真人",
      "转人工",
      "請幫我轉接客服人員",
    ])
      expect(asksForPerson(text), text).toBe(true);
    for (const text of [
      "Are you a human?",
      "Do you sell bikes?",
      "What does a person pay for a bike?",
      "I don't want to talk to an agent",
      "你是真人嗎？",
      "How much is the deposit?",
    ])
      expect(asksForPerson(text), text).toBe(false);
  });

  it("small talk strung together, in English and Traditional Chinese", () => {
    expect(smallTalkReply("Thanks, bye!")).toBe("You're welcome! Goodbye, and have a nice day!");
    expect(smallTalkReply("Hi, how are you?")).toBe("I'm doing well, thank you for asking! How can I help you today?");
    expect(smallTalkReply("你好嗎？")).toBe("我很好，謝謝關心！請問有什麼可以幫您？");
    expect(smallTalkReply("Thanks, and where is the shop?")).toBeNull();
  });

  it("a follow-up's retrieval query holds the previous question; a question of its own does not", () => {
    expect(isFollowUp("How much is the deposit?")).toBe(true);
    expect(isFollowUp("What does it cover?")).toBe(true);
    expect(isFollowUp("How long does delivery to Germany take for a large parcel?")).toBe(false);
    expect(retrievalQuery("How much is the deposit?", ["Do you rent bikes?"])).toContain("Do you rent bikes?");
    // Small talk and requests for a person ask nothing: the question before them is the one continued.
    expect(retrievalQuery("How much is the deposit?", ["Do you rent bikes?", "Thanks!"])).toContain(
      "Do you rent bikes?",
    );
    expect(
      retrievalQuery("How long does delivery to Germany take for a large parcel?", ["Do you rent bikes?"]),
    ).not.toContain("rent");
    // The concepts' other wordings, in the question's script.
    expect(retrievalQuery("What is your address?")).toMatch(/street/);
    expect(retrievalQuery("你們在哪裡？")).toMatch(/地址/);
    expect(retrievalQuery("你們在哪裡？")).not.toMatch(/street/);
  });

  it("concepts: a paraphrase and its passage share one", () => {
    expect([...conceptsIn("What is your address?").keys()]).toContain("address");
    expect([...conceptsIn("The workshop is at 12 Harbour Street.").keys()]).toContain("address");
    expect([...conceptsIn("How much is it?").keys()]).toContain("price");
    expect([...conceptsIn("門市位於鹿特丹").keys()]).toContain("address");
  });

  it("a title run into its first sentence is a heading of its own", () => {
    const lines = passageSentences(
      "Warranty Every Acme product comes with a two-year warranty. Returns You may return any unused product. Shipping",
      new Set(["return"]),
    );
    expect(lines).toEqual([
      { text: "Warranty", heading: true },
      { text: "Every Acme product comes with a two-year warranty.", heading: false },
      { text: "Returns", heading: true },
      { text: "You may return any unused product.", heading: false },
      { text: "Shipping", heading: true },
    ]);
    expect(passageSentences("Opening hours Our shop opens at 9 am.", new Set()).map((s) => s.heading)).toEqual([
      true,
      false,
    ]);
    // A sentence with a name in it is not split.
    expect(
      passageSentences("Customers who buy Acme products get free shipping.", new Set()).map((s) => s.heading),
    ).toEqual([false]);
  });

  it("yes/no questions, and the sentence ranked by how well it answers", () => {
    expect(isYesNo("Do you ship to the United States?")).toBe(true);
    expect(isYesNo("Can you tell me the price?")).toBe(false);
    expect(isYesNo("可以退貨嗎？")).toBe(true);
    expect(isYesNo("押金多少錢？")).toBe(false);
    const passages = [
      {
        index: 1,
        text:
          "You may return any unused product within 30 days of delivery for a full refund. Delivery abroad " +
          "takes three to five working days.",
      },
    ];
    expect(extract("How long does delivery take?", passages)).toBe("Delivery abroad takes three to five working days.");
    expect(extract("Do you sell gift cards?", passages)).toBe("");
  });
});
