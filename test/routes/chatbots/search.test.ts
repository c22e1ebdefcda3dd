// POST /chatbots/{id}/search/: what an assistant would retrieve, from the knowledge bases linked to it that the caller
// can also see (as its files and FAQs are listed: knowledge-lists.test.ts).
import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { createFaq, createKnowledgeBase } from "../../fixtures/knowledge";
import { bodyOf } from "../../support/api";
import { upstreamModel, upstreamRequestCount } from "../chat-completions/fixtures";

const searchOf = (botId: string) => `/chatbots/${botId}/search/`;

async function search(actor: Actor, botId: string, body?: object, { prefix = "/api/v1", query = "" } = {}) {
  const res = await actor.fetch("POST", `${searchOf(botId)}${query}`, body, { prefix });
  expect(res.status, await res.clone().text()).toBe(200);
  return await bodyOf<"POST /chatbots/{id}/search/">(res);
}

/** An assistant with two knowledge bases (`open`, `closed`), each with a refund FAQ, and a base it does not use. */
async function setup() {
  const owner = await seedOwner();
  const bot = await createChatbot(owner);
  const open = await createKnowledgeBase(owner, { chatbots: [{ id: bot.id }] });
  const closed = await createKnowledgeBase(owner, { chatbots: [{ id: bot.id }] });
  const unused = await createKnowledgeBase(owner);
  await createFaq(owner, open.id, { question: "How do refunds work?", answer: "Refunds take 14 days." });
  await createFaq(owner, closed.id, { question: "Refund code for staff?", answer: "STAFF-REFUND-77" });
  await createFaq(owner, unused.id, { question: "Refund of another shop?", answer: "Not ours." });
  return { owner, bot, open, closed, unused };
}
let shared: ReturnType<typeof setup> | undefined;
const world = () => (shared ??= setup());

describe("POST /chatbots/{id}/search/", () => {
  it("finds what every knowledge base linked to the assistant holds, and nothing of another", async () => {
    const { owner, bot, open, closed } = await world();
    for (const prefix of ["/api/v1", "/api"]) {
      const page = await search(owner, bot.id, { query: "refund", searchMethod: "keyword" }, { prefix });
      expect(page.results.map((r) => r.knowledgeBase.id).sort()).toEqual([open.id, closed.id].sort());
      expect(page.count).toBe(2);
      expect(page.results.every((r) => r.type === "faq" && r.highlightedText.includes("<mark>"))).toBe(true);
    }
  });

  it("takes the query from the query string; the body wins over it; pages by pageSize", async () => {
    const { owner, bot } = await world();
    const fromQuery = await search(owner, bot.id, undefined, { query: "?query=refund&searchMethod=keyword" });
    expect(fromQuery.count).toBe(2);
    const bodyWins = await search(
      owner,
      bot.id,
      { query: "staff", searchMethod: "keyword" },
      { query: "?query=how+do+refunds+work" },
    );
    expect(bodyWins.results.map((r) => r.faq?.answer)).toEqual(["STAFF-REFUND-77"]);
    const first = await search(owner, bot.id, { query: "refund", searchMethod: "keyword" }, { query: "?pageSize=1" });
    expect([first.count, first.results.length, new URL(first.next!).searchParams.get("page")]).toEqual([2, 1, "2"]);
    // The spec lists page and pageSize among the parameters: in the body too, where the URL does not give them.
    const inBody = { query: "refund", searchMethod: "keyword", pageSize: 1 };
    const second = await search(owner, bot.id, { ...inBody, page: 2 });
    expect([second.count, second.results.length]).toEqual([2, 1]);
    expect(second.results[0].faq?.id).not.toBe(first.results[0].faq?.id);
    expect((await search(owner, bot.id, inBody, { query: "?page=2" })).results).toEqual(second.results);
  });

  it("a member searches only the knowledge bases they can see: the assistant does not open the others", async () => {
    const { owner, bot, open, closed } = await setup();
    const member = await seedMember(owner, ["chatbot.view", "knowledge_base.view"]);
    const given = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { groups: [{ id: member.groupId! }] });
    expect(given.status, await given.clone().text()).toBe(200);
    const kb = await owner.fetch("PATCH", `/knowledge-bases/${open.id}/`, { groups: [{ id: member.groupId! }] });
    expect(kb.status, await kb.clone().text()).toBe(200);
    const page = await search(member, bot.id, { query: "refund", searchMethod: "keyword" });
    expect(page.results.map((r) => r.knowledgeBase.id)).toEqual([open.id]);
    expect(JSON.stringify(page)).not.toContain("STAFF-REFUND-77");
    // The owner still searches both; the other base stays closed to the member.
    expect((await search(owner, bot.id, { query: "refund", searchMethod: "keyword" })).count).toBe(2);
    await expectError(await member.fetch("GET", `/knowledge-bases/${closed.id}/`), 404, "not_found");
  });

  it("400 without a query (in neither place) and for an unknown search method, naming the field", async () => {
    const { owner, bot } = await world();
    const none = await expectError(await owner.fetch("POST", searchOf(bot.id), {}), 400, "invalid");
    expect(none.errors?.query).toBeTruthy();
    const method = await expectError(
      await owner.fetch("POST", searchOf(bot.id), { query: "refund", searchMethod: "magic" }),
      400,
      "invalid",
    );
    expect(method.errors?.searchMethod).toBeTruthy();
  });

  it("401 without a key", async () => {
    await expectError(await call("POST", `/api/v1${searchOf(NO_SUCH_ID)}`, { query: "x" }), 401, "not_authenticated");
  });

  it("404 for another organization's assistant, an assistant the member cannot see, or no such assistant", async () => {
    const { owner, bot } = await world();
    const stranger = await seedOwner("stranger");
    await expectError(await stranger.fetch("POST", searchOf(bot.id), { query: "refund" }), 404, "not_found");
    const outsider = await seedMember(owner, ["chatbot.view"]);
    await expectError(await outsider.fetch("POST", searchOf(bot.id), { query: "refund" }), 404, "not_found");
    await expectError(await owner.fetch("POST", searchOf(NO_SUCH_ID), { query: "refund" }), 404, "not_found");
  });
});

describe("POST /chatbots/{id}/search/: HyDE's language model", () => {
  // Models that fail at once (fail-500 for their first 99 requests): a test need not wait for a long answer.
  const failing = () => `fail-500x99-${crypto.randomUUID()}`;

  it("a largeLanguageModel of another organization is 400 naming it, never asked (with that one's key)", async () => {
    const victim = await seedOwner("victim");
    const modelName = failing();
    const theirs = await upstreamModel(victim, { modelName });
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const kb = await createKnowledgeBase(owner, { enableHyde: true, chatbots: [{ id: bot.id }] });
    await createFaq(owner, kb.id, { question: "How do refunds work?", answer: "Refunds take 14 days." });
    for (const [body, query] of [
      [{ query: "refund", largeLanguageModel: theirs.id }, ""],
      [{ query: "refund" }, `?largeLanguageModel=${theirs.id}`],
    ] as const) {
      const error = await expectError(await owner.fetch("POST", `${searchOf(bot.id)}${query}`, body), 400, "invalid");
      expect(error.errors?.largeLanguageModel).toBeTruthy();
    }
    expect(await upstreamRequestCount(modelName)).toBe(0);
  });

  it("a failing HyDE model is the documented 502 (upstream_error), not a 500", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner, { modelName: failing() });
    const bot = await createChatbot(owner, { largeLanguageModel: model.id });
    const kb = await createKnowledgeBase(owner, { enableHyde: true, chatbots: [{ id: bot.id }] });
    await createFaq(owner, kb.id, { question: "How do refunds work?", answer: "Refunds take 14 days." });
    await expectError(await owner.fetch("POST", searchOf(bot.id), { query: "refund" }), 502, "upstream_error");
  });
});
