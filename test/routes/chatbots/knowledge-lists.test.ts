import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { createFaq, createKnowledgeBase, uploadFiles, waitForFile } from "../../fixtures/knowledge";
import { bodyOf, type Schemas } from "../../support/api";

type FilePage = Schemas["ChatbotKnowledgeFilePage"];
type FaqPage = Schemas["ChatbotKnowledgeFaqPage"];

const filesOf = (botId: string, query = "") => `/chatbots/${botId}/knowledge-bases-files/${query}`;
const faqsOf = (botId: string, query = "") => `/chatbots/${botId}/knowledge-bases-faqs/${query}`;

async function list<T extends FilePage | FaqPage>(actor: Actor, path: string): Promise<T> {
  const res = await actor.fetch("GET", path);
  expect(res.status, await res.clone().text()).toBe(200);
  return await res.json<T>();
}

/** An assistant answering from one knowledge base (`linked`), and one it does not use (`other`). */
async function setup() {
  const owner = await seedOwner();
  const bot = await createChatbot(owner);
  const linked = await createKnowledgeBase(owner, { chatbots: [{ id: bot.id }] });
  const other = await createKnowledgeBase(owner);
  // Uploaded one after the other, so that "newest first" has an order to show; processed together.
  const [refunds] = await uploadFiles(owner, linked.id, [
    { name: "refunds.txt", content: "Refunds are paid within 14 days." },
  ]);
  const [shipping] = await uploadFiles(owner, linked.id, [
    { name: "shipping.md", content: "# Shipping\n\nShipping is free above 50 euros." },
  ]);
  const [unrelated] = await uploadFiles(owner, other.id, [
    { name: "unrelated.txt", content: "Nothing to do with the assistant." },
  ]);
  await Promise.all([
    waitForFile(owner, linked.id, refunds.id),
    waitForFile(owner, linked.id, shipping.id),
    waitForFile(owner, other.id, unrelated.id),
  ]);
  const refundFaq = await createFaq(owner, linked.id, {
    question: "How do I get a refund?",
    answer: "Write to billing.",
  });
  const shippingFaq = await createFaq(owner, linked.id, { question: "Is shipping free?", answer: "Above 50 euros." });
  await createFaq(owner, other.id, { question: "Unrelated question?", answer: "Unrelated answer." });
  return { owner, bot, linked, other, refunds, shipping, refundFaq, shippingFaq };
}
/** The same world for the tests that only read. */
let shared: ReturnType<typeof setup> | undefined;
const readOnly = () => (shared ??= setup());

describe("GET /chatbots/{id}/knowledge-bases-files/ and -faqs/", () => {
  it("lists the files and FAQs of the linked knowledge bases only, newest first", async () => {
    const { owner, bot, linked, refunds, shipping, refundFaq, shippingFaq } = await readOnly();
    const files = await list<FilePage>(owner, filesOf(bot.id));
    expect(files).toMatchObject({ count: 2, next: null, previous: null });
    expect(files.results.map((f) => f.id)).toEqual([shipping.id, refunds.id]);
    expect(files.results[0]).toMatchObject({
      filename: "shipping.md",
      knowledgeBase: { id: linked.id, name: linked.name },
    });
    const faqs = await list<FaqPage>(owner, faqsOf(bot.id));
    expect(faqs.count).toBe(2);
    expect(faqs.results.map((f) => f.id)).toEqual([shippingFaq.id, refundFaq.id]);
    expect(faqs.results[0]).toMatchObject({
      question: "Is shipping free?",
      knowledgeBase: { id: linked.id, name: linked.name },
    });
  });

  it("also under /api, with snake_case query keys, and paged", async () => {
    const { owner, bot, shipping } = await readOnly();
    const res = await owner.fetch("GET", filesOf(bot.id, "?page_size=1"), undefined, { prefix: "/api" });
    expect(res.status, await res.clone().text()).toBe(200);
    const page = await bodyOf<"GET /chatbots/{id}/knowledge-bases-files/">(res);
    expect(page.count).toBe(2);
    expect(page.results.map((f) => f.id)).toEqual([shipping.id]);
    expect(new URL(page.next!).searchParams.get("page")).toBe("2");
  });

  it("source: self_built and all list the organization's knowledge, built_in is empty", async () => {
    const { owner, bot } = await readOnly();
    for (const path of [filesOf, faqsOf]) {
      expect((await list(owner, path(bot.id, "?source=self_built"))).count).toBe(2);
      expect((await list(owner, path(bot.id, "?source=all"))).count).toBe(2);
      expect(await list(owner, path(bot.id, "?source=built_in"))).toMatchObject({
        count: 0,
        next: null,
        previous: null,
        results: [],
      });
    }
  });

  it("`query` filters by filename (files) and question (FAQs); largeLanguageModel, replyMode do nothing", async () => {
    const { owner, bot, refunds, refundFaq } = await readOnly();
    const files = await list<FilePage>(owner, filesOf(bot.id, "?query=REFUND"));
    expect(files.results.map((f) => f.id)).toEqual([refunds.id]);
    const faqs = await list<FaqPage>(owner, faqsOf(bot.id, "?query=refund"));
    expect(faqs.results.map((f) => f.id)).toEqual([refundFaq.id]);
    // An FAQ's answer is not searched: "billing" is only in the answer.
    expect((await list<FaqPage>(owner, faqsOf(bot.id, "?query=billing"))).count).toBe(0);
    const ignored = "?largeLanguageModel=00000000-0000-7000-8000-000000000001&replyMode=template";
    expect((await list<FilePage>(owner, filesOf(bot.id, ignored))).count).toBe(2);
    expect((await list<FaqPage>(owner, faqsOf(bot.id, ignored))).count).toBe(2);
  });

  it("a knowledge base linked later appears; an assistant without knowledge lists nothing", async () => {
    const { owner, bot, other } = await setup();
    const res = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { knowledgeBases: [{ id: other.id }] });
    expect(res.status, await res.clone().text()).toBe(200);
    const files = await list<FilePage>(owner, filesOf(bot.id));
    expect(files.results.map((f) => f.filename)).toEqual(["unrelated.txt"]);
    const empty = await createChatbot(owner);
    expect(await list(owner, filesOf(empty.id))).toMatchObject({ count: 0, results: [] });
    expect(await list(owner, faqsOf(empty.id))).toMatchObject({ count: 0, results: [] });
  });

  it("400 for an unknown source", async () => {
    const { owner, bot } = await readOnly();
    const body = await expectError(await owner.fetch("GET", filesOf(bot.id, "?source=everything")), 400, "invalid");
    expect(body.errors?.source).toBeTruthy();
    await expectError(await owner.fetch("GET", faqsOf(bot.id, "?source=everything")), 400, "invalid");
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", `/api/v1${filesOf(NO_SUCH_ID)}`), 401, "not_authenticated");
    await expectError(await call("GET", `/api/v1${faqsOf(NO_SUCH_ID)}`), 401, "not_authenticated");
  });

  it("404 for another organization's assistant, no such assistant or a malformed id", async () => {
    const { bot } = await readOnly();
    const stranger = await seedOwner("stranger");
    await expectError(await stranger.fetch("GET", filesOf(bot.id)), 404, "not_found");
    await expectError(await stranger.fetch("GET", faqsOf(bot.id)), 404, "not_found");
    await expectError(await stranger.fetch("GET", filesOf(NO_SUCH_ID)), 404, "not_found");
    await expectError(await stranger.fetch("GET", faqsOf("not-a-uuid")), 404, "not_found");
  });

  it("members: 404 without the assistant; with it, only the knowledge bases they can see", async () => {
    const { owner, bot, linked } = await setup();
    const outsider = await seedMember(owner, ["chatbot.view"]);
    await expectError(await outsider.fetch("GET", filesOf(bot.id)), 404, "not_found");
    const botOnly = await seedMember(owner, ["chatbot.view"]);
    const both = await seedMember(owner, ["chatbot.view", "knowledge_base.view"]);
    const shared = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, {
      groups: [{ id: botOnly.groupId }, { id: both.groupId }],
    });
    expect(shared.status, await shared.clone().text()).toBe(200);
    const kb = await owner.fetch("PATCH", `/knowledge-bases/${linked.id}/`, { groups: [{ id: both.groupId }] });
    expect(kb.status, await kb.clone().text()).toBe(200);
    // Seeing an assistant does not open its knowledge bases.
    expect((await list(botOnly, filesOf(bot.id))).count).toBe(0);
    expect((await list(botOnly, faqsOf(bot.id))).count).toBe(0);
    expect((await list(both, filesOf(bot.id))).count).toBe(2);
    expect((await list(both, faqsOf(bot.id))).count).toBe(2);
  });
});
