import { describe, expect, it } from "vitest";
import { seedOwner, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { createFaq, createKnowledgeBase, ingest } from "../../fixtures/knowledge";
import { bodyOf } from "../../support/api";

/**
 * The built-in local model answers, through the real stack (retrieval from D1 and the index
 * object, the reply, the stored message), and never says the question back (asked an
 * FAQ's question, it answered with the question, as the widget's screenshot showed).
 */
const ask = async (owner: Actor, chatbotId: string, content: string) => {
  const res = await owner.fetch("POST", `/chatbots/${chatbotId}/completions/`, { message: { content } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).content;
};

describe("the built-in local model answers, and does not echo the question", () => {
  it("asked an FAQ's question, answers with the FAQ's answer field", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    await createFaq(owner, kb.id, {
      question: "What are your opening hours?",
      answer: "Our shop opens at 9 am and closes at 6 pm from Monday to Saturday.",
    });
    await createFaq(owner, kb.id, {
      question: "Do you ship abroad?",
      answer: "We ship to every country of the European Union within five days.",
    });
    const bot = await createChatbot(owner, {
      knowledgeBases: [{ id: kb.id }],
      instructions: "You are the shop's assistant.",
    });
    expect(await ask(owner, bot.id, "What are your opening hours?")).toBe(
      "Our shop opens at 9 am and closes at 6 pm from Monday to Saturday.",
    );
    expect(await ask(owner, bot.id, "Do you ship abroad?")).toBe(
      "We ship to every country of the European Union within five days.",
    );
  });

  it("from a document, answers with the sentences after the question, never the question or its title", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const handbook = [
      "# Opening hours",
      "",
      "What are your opening hours? Our shop opens at 9 am and closes at 6 pm from Monday to Saturday.",
      "On public holidays the shop stays closed.",
      "",
      "# Returns",
      "",
      "Can I return an item? You can return any item within 30 days of delivery for a full refund.",
    ].join("\n");
    await ingest(owner, kb.id, [{ name: "handbook.md", content: handbook }]);
    const bot = await createChatbot(owner, { knowledgeBases: [{ id: kb.id }] });
    const hours = await ask(owner, bot.id, "What are your opening hours?");
    expect(hours).toContain("Our shop opens at 9 am and closes at 6 pm from Monday to Saturday.");
    expect(hours).not.toMatch(/opening hours/i);
    const returns = await ask(owner, bot.id, "Can I return an item?");
    // A yes/no question answered in full gets its "Yes" (docs/decisions.md, "The built-in model's answer composition").
    expect(returns).toBe("Yes, you can return any item within 30 days of delivery for a full refund.");
    expect(returns).not.toContain("Can I return an item?");
  });

  it("quotes the sentence holding the figure asked for, though it says most of the question again", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const cakes = [
      "Custom cakes",
      "",
      "We bake custom birthday cakes for up to 40 people. Order at least three days ahead by phone or in the shop.",
      "Flavours: chocolate, vanilla, carrot and lemon. A cake for 20 people costs 45 euros.",
      "",
      "Delivery",
      "",
      "We deliver within 10 km of the shop for 5 euros. Orders above 50 euros are delivered free of charge.",
    ].join("\n");
    await ingest(owner, kb.id, [{ name: "cakes.txt", content: cakes }]);
    const bot = await createChatbot(owner, { knowledgeBases: [{ id: kb.id }] });
    for (const question of ["What does a cake for 20 people cost?", "How much does a cake for 20 people cost?"]) {
      const answer = await ask(owner, bot.id, question);
      expect(answer).toContain("A cake for 20 people costs 45 euros.");
      expect(answer).not.toContain("We deliver");
    }
  });

  it("a reply that says it does not know lists no sources, though passages were found", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    await createFaq(owner, kb.id, { question: "What are your opening hours?", answer: "We open at 7 am every day." });
    await createFaq(owner, kb.id, {
      question: "Do you have gluten-free bread?",
      answer: "Yes, we bake a gluten-free loaf every Friday.",
    });
    const bot = await createChatbot(owner, { knowledgeBases: [{ id: kb.id }] });
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "Do you have vegan bread?" },
    });
    const reply = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
    expect(reply.content).toBe("I don't know the answer to that from my sources.");
    expect(reply.message?.citationNodes).toEqual([]);
    expect(reply.message?.citations).toEqual([]);
  });

  it("small talk gets a short polite reply, with sources or without, instructions or none", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    await createFaq(owner, kb.id, { question: "What are your opening hours?", answer: "Our shop opens at 9 am." });
    const plain = await createChatbot(owner);
    const instructed = await createChatbot(owner, { instructions: "Answer from the shop's handbook only." });
    const grounded = await createChatbot(owner, { knowledgeBases: [{ id: kb.id }], instructions: "Be brief." });
    for (const bot of [plain, instructed, grounded]) {
      expect(await ask(owner, bot.id, "Hello!")).toBe("Hello! How can I help you today?");
      expect(await ask(owner, bot.id, "Hi there")).toBe("Hello! How can I help you today?");
      expect(await ask(owner, bot.id, "Thanks")).toBe("You're welcome! Is there anything else I can help you with?");
      // Written alike in both scripts: Traditional; in Simplified characters, Simplified ("The reply's script").
      expect(await ask(owner, bot.id, "你好")).toBe("您好！請問有什麼可以幫您？");
      expect(await ask(owner, bot.id, "谢谢")).toBe("不客气！还有什么可以帮您的吗？");
    }
    // A question is not small talk: without sources the model says plainly that it does not know.
    expect(await ask(owner, instructed.id, "Hi, can I pay by card?")).toBe(
      "I don't know the answer to that from my sources.",
    );
  });
});
