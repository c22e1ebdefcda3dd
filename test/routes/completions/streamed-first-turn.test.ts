import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { seedOwner, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { upstreamModel } from "../chat-completions/fixtures";
import { chunksOf, liveEvents, readEvents, storedReply, type StreamEvent, streamedText } from "../../support/sse";
import { conversationObject } from "../../../src/services/conversations";
import { bodyOf, type Schemas } from "../../support/api";

// A new conversation's first streamed turn runs in the worker (src/services/conversation/first-turn.ts): the
// visitor's message is stored while the reply streams, once the conversation's object holds later
// turns until the reply is stored. The model is the local upstream pacing its 20 words
// (`delay-<ms>`), so the reply is still under way when the conversation becomes visible.
type Message = Schemas["Message"];
const ANSWER = Array.from({ length: 20 }, (_, i) => `word${i + 1}`).join(" ");
const messagesOf = async (owner: Actor, conversationId: string) =>
  (
    await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${conversationId}&pageSize=100`))
  ).results.sort((a, b) => a.sequence - b.sequence);
const layout = (messages: Message[]) => messages.map((m) => `${m.sequence}:${m.type}`);
const holdOf = (conversationId: string) =>
  runInDurableObject(
    conversationObject(env, conversationId),
    (_instance, state) => state.storage.kv.get<number>("firstTurnUntil") ?? null,
  );

async function slowBot(owner: Actor, delayMs = 40) {
  const model = await upstreamModel(owner, { modelName: `delay-${delayMs}` });
  return createChatbot(owner, { largeLanguageModel: model.id });
}

/** Starts a streamed first turn; resolves once its first event named the conversation and the visitor's message is
 * stored. */
async function startFirstTurn(owner: Actor, chatbotId: string, content = "first") {
  const res = await owner.fetch("POST", `/chatbots/${chatbotId}/completions/`, {
    message: { content },
    isStreaming: true,
  });
  expect(res.status).toBe(200);
  const events = liveEvents<StreamEvent>(res);
  const first = await events.next("message");
  const { conversationId } = first.data;
  expect(first.data).toMatchObject({
    conversationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    content: "word1",
    done: false,
  });
  let stored: Message[] = [];
  for (let i = 0; i < 100 && !stored.length; i++) stored = await messagesOf(owner, conversationId);
  expect(layout(stored)).toEqual(["1:incoming"]);
  /** The rest of the stream, to its last event. */
  const rest = async () => {
    const seen: StreamEvent[] = [first];
    for (;;) {
      const e = await events.next().catch(() => null);
      if (!e) return seen;
      seen.push(e);
    }
  };
  return { conversationId, rest };
}

describe("a new conversation's first streamed turn, in the worker", () => {
  it(
    "streams the reply and stores the question and the reply as 1 and 2, with the conversation's words and " + "state",
    async () => {
      const owner = await seedOwner();
      const bot = await slowBot(owner, 5);
      const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        message: { content: "Where is my parcel?" },
        isStreaming: true,
      });
      expect(res.headers.get("Content-Type")).toContain("text/event-stream");
      const events = await readEvents<StreamEvent>(res);
      const last = storedReply(events);
      expect(last).toMatchObject({
        done: true,
        content: "",
        message: { content: ANSWER, sequence: 2, type: "outgoing", usage: { completionTokens: 20 } },
      });
      const { conversationId, message } = last;
      const deltas = events.slice(0, -1);
      expect(
        chunksOf(deltas)
          .map((c) => c.content)
          .join(""),
      ).toBe(ANSWER);
      for (const e of deltas)
        expect(e).toEqual({
          event: "message",
          data: { conversationId, messageId: message.id, content: expect.any(String), done: false },
        });
      const stored = await messagesOf(owner, conversationId);
      expect(stored.map((m) => `${m.sequence}:${m.type}:${m.content}`)).toEqual([
        "1:incoming:Where is my parcel?",
        `2:outgoing:${ANSWER}`,
      ]);
      expect(stored[1].id).toBe(message.id);
      const conversation = await bodyOf<"GET /conversations/{id}/">(
        await owner.fetch("GET", `/conversations/${conversationId}/`),
      );
      expect(conversation).toMatchObject({
        inbox: { id: bot.defaultInbox!.id },
        title: "Where is my parcel?",
        progressStatus: "ai_processing",
        lastMessage: ANSWER,
      });
      expect(
        (await bodyOf<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`))).totalWordsCount,
      ).toBe(20);
      // Told stored, the object waits for nothing any more.
      expect(await holdOf(conversationId)).toBeNull();
    },
  );

  it("a second turn sent while the first streams waits for it: 3 and 4, nothing twice", async () => {
    const owner = await seedOwner();
    const bot = await slowBot(owner);
    const first = await startFirstTurn(owner, bot.id);
    expect(await holdOf(first.conversationId)).toEqual(expect.any(Number)); // the object holds later turns
    const continued = (content: string, isStreaming = false) =>
      owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        conversation: first.conversationId,
        message: { content },
        isStreaming,
      });
    const [firstEvents, direct, streamed] = await Promise.all([
      first.rest(),
      continued("second"),
      continued("third", true),
    ]);
    expect(firstEvents.at(-1)!.data).toMatchObject({ done: true, message: { content: ANSWER, sequence: 2 } });
    expect(direct.status, await direct.clone().text()).toBe(200);
    const directSequence = (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(direct)).message!.sequence;
    const streamedSequence = storedReply(await readEvents<StreamEvent>(streamed)).message.sequence;
    expect([directSequence, streamedSequence].sort()).toEqual([4, 6]);
    const stored = await messagesOf(owner, first.conversationId);
    expect(layout(stored)).toEqual([
      "1:incoming",
      "2:outgoing",
      "3:incoming",
      "4:outgoing",
      "5:incoming",
      "6:outgoing",
    ]);
    expect(stored[0].content).toBe("first");
    expect(
      stored
        .filter((m) => m.type === "incoming")
        .map((m) => m.content)
        .sort(),
    ).toEqual(["first", "second", "third"]);
  });

  it(
    "a model fault mid-stream keeps the visitor's message, ends with an error naming the conversation, records " +
      "the failure, and the object holds nothing",
    async () => {
      const owner = await seedOwner();
      const model = await upstreamModel(owner, { modelName: `fail-midstreamx9-${crypto.randomUUID()}` });
      const bot = await createChatbot(owner, { largeLanguageModel: model.id });
      const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        message: { content: "break" },
        isStreaming: true,
      });
      const events = await readEvents<StreamEvent>(res);
      expect(streamedText(events)).toBe("word1 word2 word3");
      const last = events.at(-1)!;
      expect(last).toEqual({
        event: "error",
        data: {
          code: "upstream_error",
          detail: expect.stringMatching(/model provider/),
          requestId: res.headers.get("X-Request-Id"),
          conversationId: expect.any(String),
          incomingId: expect.any(String),
        },
      });
      const conversationId = last.data.conversationId as string;
      expect(layout(await messagesOf(owner, conversationId))).toEqual(["1:incoming"]);
      // The error names the stored message: a client knows not to send it again.
      expect((await messagesOf(owner, conversationId))[0].id).toBe(last.event === "error" && last.data.incomingId);
      expect(await holdOf(conversationId)).toBeNull();
      const today = new Date().toISOString().slice(0, 10);
      const records = (
        await bodyOf<"GET /chatbots/{chatbotPk}/records/">(
          await owner.fetch("GET", `/chatbots/${bot.id}/records/?startDate=${today}&endDate=${today}`),
        )
      ).results;
      expect(records).toEqual([
        expect.objectContaining({ inputMessage: "break", error: expect.stringMatching(/model provider/) }),
      ]);
    },
  );

  it("the object reset while it holds: a new instance holds as well, and nothing is lost or doubled", async () => {
    const owner = await seedOwner();
    const bot = await slowBot(owner);
    const first = await startFirstTurn(owner, bot.id);
    const stub = conversationObject(env, first.conversationId);
    await runInDurableObject(stub, (_instance, state) => state.abort("reset by test")).catch(() => undefined);
    // The next instance finds the hold in storage; the second turn waits for the first reply.
    const [firstEvents, second] = await Promise.all([
      first.rest(),
      owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        conversation: first.conversationId,
        message: { content: "second" },
      }),
    ]);
    expect(firstEvents.at(-1)!.data).toMatchObject({ done: true, message: { content: ANSWER, sequence: 2 } });
    expect(second.status, await second.clone().text()).toBe(200);
    expect((await bodyOf<"POST /chatbots/{chatbotId}/completions/">(second)).message).toMatchObject({
      sequence: 4,
      content: ANSWER,
    });
    const stored = await messagesOf(owner, first.conversationId);
    expect(layout(stored)).toEqual(["1:incoming", "2:outgoing", "3:incoming", "4:outgoing"]);
    expect(stored.map((m) => m.content).slice(0, 3)).toEqual(["first", ANSWER, "second"]);
    expect(await holdOf(first.conversationId)).toBeNull();
  });
});
