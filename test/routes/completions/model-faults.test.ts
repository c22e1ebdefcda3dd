import { describe, expect, it } from "vitest";
import { seedOwner, type Actor, waitFor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { upstreamModel, upstreamRequestCount } from "../chat-completions/fixtures";
import { readEvents } from "../../support/sse";
import { bodyOf, problemOf } from "../../support/api";

// The upstream (test/support/openai-upstream.mjs) fails the first N requests for a model named
// `<fault>x<N>-<id>`, then answers: the provider recovers, and the same conversation goes on.
// Each case makes three turns fail: a new conversation answered directly (in the worker, the model
// asked for its answer in one piece), a new conversation streamed (in its Durable Object), and a
// direct turn continuing that conversation (in the object); a 429 or a lost connection before the
// first token is asked 3 times (MODEL_RETRIES 2), anything else once. Then a fourth turn works.
const FAULTS = [
  { fault: "fail-500", failing: 3, status: 502, attempts: [1, 1, 1] },
  { fault: "fail-429", failing: 9, status: 502, attempts: [3, 3, 3] },
  { fault: "fail-connect", failing: 9, status: 502, attempts: [3, 3, 3] },
  { fault: "hang", failing: 3, status: 504, attempts: [1, 1, 1] }, // MODEL_TIMEOUT_MS 5 s in tests
  // A complete answer that says nothing: no text, or only a call of a tool the assistant never offered.
  { fault: "empty", failing: 3, status: 502, attempts: [1, 1, 1] },
  { fault: "stray-tool", failing: 3, status: 502, attempts: [1, 1, 1] },
  // Streamed, the stream breaks after three words, which are not asked for again.
  { fault: "fail-midstream", failing: 5, status: 502, attempts: [3, 1, 1] },
  { fault: "fail-truncated", failing: 5, status: 502, attempts: [3, 1, 1] },
];

const ANSWER = Array.from({ length: 20 }, (_, i) => `word${i + 1}`).join(" ");

const messagesOf = async (owner: Actor, conversationId: string) =>
  (
    await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${conversationId}&pageSize=100`))
  ).results.sort((a, b) => a.sequence - b.sequence);

describe.each(FAULTS)("a model that answers $fault", ({ fault, failing, status, attempts }) => {
  it(
    "keeps the visitor's message, ends the reply with a clear error carrying the request id, stores nothing " +
      "partial, counts the failure, and the next message works",
    async () => {
      const owner = await seedOwner();
      const modelName = `${fault}x${failing}-${crypto.randomUUID()}`;
      const model = await upstreamModel(owner, { modelName });
      const bot = await createChatbot(owner, { largeLanguageModel: model.id });
      const completion = (body: Record<string, unknown>) =>
        owner.fetch("POST", `/chatbots/${bot.id}/completions/`, body);

      // (0) and (1) at once: a new conversation answered directly, one streamed.
      const [direct, streamed] = await Promise.all([
        completion({ message: { content: "first, direct" } }),
        completion({ message: { content: "first, streamed" }, isStreaming: true }),
      ]);
      expect(direct.status).toBe(status);
      const directError = await problemOf(direct);
      expect(directError).toMatchObject({ code: "upstream_error", requestId: direct.headers.get("X-Request-Id") });
      expect(directError.detail).toMatch(/model provider/);

      expect(streamed.status).toBe(200);
      const events = await readEvents(streamed);
      const last = events.at(-1)!;
      expect(last.event).toBe("error");
      expect(last.data).toMatchObject({ code: "upstream_error", requestId: streamed.headers.get("X-Request-Id") });
      expect(events.some((e) => e.data.done === true)).toBe(false);
      const conversationId = last.data.conversationId as string;
      expect(conversationId).toMatch(/^[0-9a-f-]{36}$/);

      // (2) the same conversation, directly.
      const again = await completion({ conversation: conversationId, message: { content: "second" } });
      expect(again.status).toBe(status);
      expect((await problemOf(again)).requestId).toBe(again.headers.get("X-Request-Id"));
      expect(await upstreamRequestCount(modelName)).toBe(attempts.reduce((a, b) => a + b));

      // Only the visitor's messages are stored: no partial answer.
      expect((await messagesOf(owner, conversationId)).map((m) => `${m.sequence}:${m.type}`)).toEqual([
        "1:incoming",
        "2:incoming",
      ]);

      // (3) the provider has recovered: the conversation goes on, in order.
      const next = await completion({ conversation: conversationId, message: { content: "third" } });
      expect(next.status, await next.clone().text()).toBe(200);
      expect((await bodyOf<"POST /chatbots/{chatbotId}/completions/">(next)).content).toBe(ANSWER);
      expect((await messagesOf(owner, conversationId)).map((m) => `${m.sequence}:${m.type}`)).toEqual([
        "1:incoming",
        "2:incoming",
        "3:incoming",
        "4:outgoing",
      ]);

      // Every failed reply is counted and recorded with its error; the new conversation's message is kept too.
      const stats = await waitFor(
        async () =>
          await bodyOf<"GET /chatbots/{chatbotPk}/statistics/">(
            await owner.fetch("GET", `/chatbots/${bot.id}/statistics/`),
          ),
        (s) => s.total.failedRepliesCount >= 3,
        3_000,
        30,
      );
      expect(stats.total).toMatchObject({ failedRepliesCount: 3, repliesCount: 1 });
      const today = new Date().toISOString().slice(0, 10);
      const records = (
        await bodyOf<"GET /chatbots/{chatbotPk}/records/">(
          await owner.fetch("GET", `/chatbots/${bot.id}/records/?startDate=${today}&endDate=${today}`),
        )
      ).results;
      expect(
        records
          .filter((r) => r.error)
          .map((r) => r.inputMessage)
          .sort(),
      ).toEqual(["first, direct", "first, streamed", "second"]);
      expect(records.filter((r) => r.error).every((r) => r.outputMessage === null)).toBe(true);
      const firstDirect = records.find((r) => r.inputMessage === "first, direct")!;
      expect(
        (await messagesOf(owner, firstDirect.conversation)).map((m) => `${m.sequence}:${m.type}:${m.content}`),
      ).toEqual(["1:incoming:first, direct"]);
    },
  );
});
