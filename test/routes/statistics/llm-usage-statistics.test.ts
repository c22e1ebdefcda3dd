import { describe, expect, it } from "vitest";
import { PREFIXES, seedOwner } from "../../harness";
import { LOCAL_LLM, createChatbot } from "../../fixtures/chatbots";
import { ok, seedConversation, sumOverParts, utc } from "./helpers";
import { expectStatisticGuarded, refusesQueries } from "./refusals";
import { objectMessages } from "../../support/object-messages";

const path = (id: string, query: string) => `/chatbots/${id}/llm-usage-statistics/${query}`;

describe("GET /chatbots/{chatbotPk}/llm-usage-statistics/", () => {
  it.each(PREFIXES)("reports the tokens the model reported for each reply, per model (%s)", async (prefix) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const reply = await ok<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Where is my parcel?" } }),
    );
    const [stored] = await objectMessages(reply.conversationId, `id = '${reply.message!.id}'`);
    expect(stored).toMatchObject({ model_id: LOCAL_LLM });
    expect(stored!.input_tokens).toBeGreaterThan(0);
    const today = new Date().toISOString().slice(0, 10);
    const usage = await ok<"GET /chatbots/{chatbotPk}/llm-usage-statistics/">(
      await owner.fetch("GET", path(bot.id, `?startDate=${today}&timeGranularity=day`), undefined, { prefix }),
    );
    expect(usage.results).toHaveLength(1);
    expect(usage.total).toMatchObject({
      requestsCount: 1,
      inputTokens: stored!.input_tokens,
      outputTokens: stored!.output_tokens,
      wordsCount: stored!.words_count,
    });
    expect(usage.total.models).toEqual([
      expect.objectContaining({ model: { id: LOCAL_LLM, name: expect.any(String) }, requestsCount: 1 }),
    ]);
    expect(usage.results[0].models[0].model.id).toBe(LOCAL_LLM);
  });

  it("adds up days into months and matches a scan of the stored replies", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    const turns = [
      // Answered 1 February.
      { at: utc("2026-01-31T23:30:00Z"), replyMs: 40 * 60_000, inputTokens: 100, outputTokens: 10, words: 7 },
      { at: utc("2026-01-15T08:00:00Z"), inputTokens: 50, outputTokens: 5, words: 3 },
      { at: utc("2026-02-28T23:59:00Z"), inputTokens: 20, outputTokens: 2, words: 1 },
    ];
    for (const t of turns) await seedConversation(owner.organizationId, bot.id, inbox, [t], { modelId: LOCAL_LLM });
    const months = await ok<"GET /chatbots/{chatbotPk}/llm-usage-statistics/">(
      await owner.fetch("GET", path(bot.id, "?start_date=2026-01-01&end_date=2026-03-31&time_granularity=month")),
    );
    expect(months.results.map((r) => [r.time, r.requestsCount, r.inputTokens, r.outputTokens, r.wordsCount])).toEqual([
      ["2026-01", 1, 50, 5, 3],
      ["2026-02", 2, 120, 12, 8],
      ["2026-03", 0, 0, 0, 0],
    ]);
    const days = await ok<"GET /chatbots/{chatbotPk}/llm-usage-statistics/">(
      await owner.fetch("GET", path(bot.id, "?startDate=2026-01-01&endDate=2026-03-31&timeGranularity=day")),
    );
    expect(days.results).toHaveLength(31 + 28 + 31);
    // The stored replies of every part, each in its conversation's.
    const scan = await sumOverParts<"n" | "i" | "o" | "w">(
      owner.organizationId,
      "SELECT count(*) AS n, sum(input_tokens) AS i, sum(output_tokens) AS o, sum(words_count) AS w FROM " +
        "messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.chatbot_id = ? AND m.sender_type = " +
        "'chatbot'",
      bot.id,
    );
    expect(scan.n).toBe(3);
    expect(days.total).toMatchObject({
      requestsCount: scan.n,
      inputTokens: scan.i,
      outputTokens: scan.o,
      wordsCount: scan.w,
    });
    expect(days.results.reduce((n, r) => n + r.requestsCount, 0)).toBe(scan.n);
    // Taipei (UTC+8): the reply of 00:10 UTC on 1 February and the question of 23:59 UTC on 28 February fall a day
    // later.
    const taipei = await ok<"GET /chatbots/{chatbotPk}/llm-usage-statistics/">(
      await owner.fetch(
        "GET",
        path(bot.id, "?startDate=2026-02-01&endDate=2026-03-01&timeGranularity=day&timezone=Asia/Taipei"),
      ),
    );
    expect(taipei.results.filter((r) => r.requestsCount).map((r) => r.time)).toEqual(["2026-02-01", "2026-03-01"]);
  });

  refusesQueries(path, [
    ["?timeGranularity=day", "startDate"],
    ["?startDate=2026-01-01", "timeGranularity"],
    ["?startDate=2026-01-01&timeGranularity=hour", "timeGranularity"],
    ["?startDate=01/01/2026&timeGranularity=day", "startDate"],
    ["?startDate=2026-01-01&endDate=2026-13-01&timeGranularity=day", "endDate"],
    ["?startDate=2026-02-01&endDate=2026-01-31&timeGranularity=day", "endDate"],
  ]);

  it("401, 403 without statistics.view, 404 for another organization's assistant", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const q = "?startDate=2026-01-01&timeGranularity=day";
    await expectStatisticGuarded(owner, bot.id, (id) => path(id, q), "/api");
  });
});
