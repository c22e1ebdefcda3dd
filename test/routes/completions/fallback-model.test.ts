import { describe, expect, it } from "vitest";
import { seedOwner } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import {
  PRE_TOKEN_FAULTS,
  assistantWithFallback,
  storedModelOf,
  upstreamModel,
  upstreamRequestCount,
} from "../chat-completions/fixtures";
import { readEvents, storedReply, type StreamEvent } from "../../support/sse";
import { bodyOf, refinedBodyOf } from "../../support/api";

// An assistant whose model fails before its first token (after its retries) is answered by its
// fallbackLargeLanguageModel: the reply records the fallback as its model and the statistics count
// it there. The upstream (test/support/openai-upstream.mjs) fails every request for `<fault>x99-<id>`.
const ANSWER = Array.from({ length: 20 }, (_, i) => `word${i + 1}`).join(" ");
type Completion = { conversationId: string; content: string; message: { id: string; content: string } };

describe.each(PRE_TOKEN_FAULTS)("a primary model that answers $fault", ({ fault, attempts }) => {
  it(
    "is replaced by the fallback in a new conversation (direct and streamed) and a continuing one; the replies " +
      "and statistics name the fallback",
    async () => {
      const owner = await seedOwner();
      const { bot, fallback, primaryName, fallbackName } = await assistantWithFallback(
        owner,
        `${fault}x99-${crypto.randomUUID()}`,
      );
      const completion = (body: Record<string, unknown>) =>
        owner.fetch("POST", `/chatbots/${bot.id}/completions/`, body);

      const direct = await completion({ message: { content: "first, direct" } });
      expect(direct.status, await direct.clone().text()).toBe(200);
      const answered = await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Completion>(direct);
      expect(answered.content).toBe(ANSWER);

      const streamed = await completion({ message: { content: "first, streamed" }, isStreaming: true });
      const done = storedReply(await readEvents<StreamEvent>(streamed));
      expect(done).toMatchObject({ done: true, message: { content: ANSWER } });
      const { conversationId } = done;

      const again = await completion({ conversation: conversationId, message: { content: "second" } });
      expect(again.status).toBe(200);
      const second = await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Completion>(again);
      expect(second.content).toBe(ANSWER);

      for (const reply of [answered, done, second]) expect(await storedModelOf(reply)).toBe(fallback.id);
      expect(await upstreamRequestCount(primaryName)).toBe(3 * attempts);
      expect(await upstreamRequestCount(fallbackName)).toBe(3);

      const today = new Date().toISOString().slice(0, 10);
      const usage = await bodyOf<"GET /chatbots/{chatbotPk}/llm-usage-statistics/">(
        await owner.fetch(
          "GET",
          `/chatbots/${bot.id}/llm-usage-statistics/?startDate=${today}&endDate=${today}&timeGranularity=day`,
        ),
      );
      expect(usage.total.models.map((m) => [m.model.id, m.requestsCount])).toEqual([[fallback.id, 3]]);
    },
  );
});

describe("the fallback model", () => {
  it("takes over a primary that does not answer within MODEL_TIMEOUT_MS", async () => {
    const owner = await seedOwner();
    const { bot, fallback } = await assistantWithFallback(owner, `hangx99-${crypto.randomUUID()}`);
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "hello" } });
    expect(res.status).toBe(200);
    expect(await storedModelOf(await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Completion>(res))).toBe(
      fallback.id,
    );
  });

  it(
    "does not take over a stream broken after its first words: the reply ends with the error event, as without " +
      "a fallback",
    async () => {
      const owner = await seedOwner();
      const { bot, fallbackName } = await assistantWithFallback(owner, `fail-midstreamx99-${crypto.randomUUID()}`);
      const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        message: { content: "hello" },
        isStreaming: true,
      });
      const events = await readEvents(res);
      expect(
        events
          .filter((e) => e.event !== "error")
          .map((e) => e.data.content)
          .join(""),
      ).toBe("word1 word2 word3");
      expect(events.at(-1)).toMatchObject({ event: "error", data: { code: "upstream_error" } });
      expect(await upstreamRequestCount(fallbackName)).toBe(0);
    },
  );

  it("is not asked when the primary answers, and a failing fallback reports the primary's failure", async () => {
    const owner = await seedOwner();
    const fine = await upstreamModel(owner);
    const broken = await upstreamModel(owner, { modelName: `fail-500x99-${crypto.randomUUID()}` });
    const brokenFallback = `fail-500x99-${crypto.randomUUID()}`;
    const second = await upstreamModel(owner, { modelName: brokenFallback });
    const healthy = await createChatbot(owner, { largeLanguageModel: fine.id, fallbackLargeLanguageModel: second.id });
    const ok = await owner.fetch("POST", `/chatbots/${healthy.id}/completions/`, { message: { content: "hello" } });
    expect(await storedModelOf(await refinedBodyOf<"POST /chatbots/{chatbotId}/completions/", Completion>(ok))).toBe(
      fine.id,
    );
    expect(await upstreamRequestCount(brokenFallback)).toBe(0);

    const bot = await createChatbot(owner, { largeLanguageModel: broken.id, fallbackLargeLanguageModel: second.id });
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "hello" } });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: "upstream_error" });
    expect(await upstreamRequestCount(brokenFallback)).toBe(1);
  });
});
