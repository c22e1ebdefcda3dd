// The conversation pipeline's effects (src/services/conversation/effects.ts): one list, run once per
// stored message whichever way the message came in, and once per turn's end. The effect under test
// is added through the tests-only registration; it shares the isolate with the worker and the
// conversation objects, as every module of the test run does.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { seedOwner, waitFor, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { readEvents } from "../support/sse";
import { upstreamModel } from "../routes/chat-completions/fixtures";
import { visitorConversation } from "../routes/widget/fixtures";
import { addEffectForTest } from "../../src/services/conversation/effects";
import { bodyOf } from "../support/api";

let stored: { id: string; sequence: number; conversation: string; created: boolean }[] = [];
let replied: string[] = [];
let failed: string[] = [];
let remove: () => void;

beforeEach(() => {
  stored = [];
  replied = [];
  failed = [];
  remove = addEffectForTest({
    name: "test",
    stored: ({ created, messages }) =>
      stored.push(
        ...messages.map((m) => ({
          id: m.message.id,
          sequence: m.message.sequence,
          conversation: m.message.conversationId,
          created: !!created,
        })),
      ),
    replied: (_end, reply) => void replied.push(reply.id),
    replyFailed: async ({ incoming }) => void failed.push(incoming.id),
  });
});
afterEach(() => remove());

/** Every message stored in the conversation, by id. */
async function messageIds(owner: Actor, conversationId: string) {
  const page = await bodyOf<"GET /messages/">(
    await owner.fetch("GET", `/messages/?conversation=${conversationId}&pageSize=100`),
  );
  return page.results.sort((a, b) => a.sequence - b.sequence).map((m) => m.id);
}

/** The effect saw each of the conversation's messages exactly once, in order, and nothing else of it. */
async function expectEachOnce(owner: Actor, conversationId: string, count: number) {
  const ids = await messageIds(owner, conversationId);
  expect(ids).toHaveLength(count);
  await waitFor(
    async () => stored.filter((s) => s.conversation === conversationId).length,
    (n) => n >= count,
    5_000,
  );
  expect(stored.filter((s) => s.conversation === conversationId).map((s) => s.id)).toEqual(ids);
}

describe("the effects of stored messages", () => {
  it("run once per message for completions, direct and streamed, first turns and later ones", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const path = `/chatbots/${bot.id}/completions/`;
    // Direct: the first turn in the worker, the second through the conversation's object.
    const first = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", path, { message: { content: "hello" } }),
    );
    await owner.fetch("POST", path, { conversation: first.conversationId, message: { content: "again" } });
    await expectEachOnce(owner, first.conversationId, 4);
    expect(stored.filter((s) => s.conversation === first.conversationId).map((s) => s.created)).toEqual([
      true,
      true,
      false,
      false,
    ]);
    // Streamed: the same, each turn read to its end.
    const streamed = await readEvents(
      await owner.fetch("POST", path, { message: { content: "hello" }, isStreaming: true }),
    );
    const conversationId = String(streamed.at(-1)!.data.conversationId);
    await readEvents(
      await owner.fetch("POST", path, {
        conversation: conversationId,
        message: { content: "again" },
        isStreaming: true,
      }),
    );
    await expectEachOnce(owner, conversationId, 4);
    expect(replied).toHaveLength(4);
  });

  it("run once per message for an asynchronous message, the widget, and a human agent's reply", async () => {
    const owner = await seedOwner();
    const { id: conversationId } = await visitorConversation(owner);
    await expectEachOnce(owner, conversationId, 2);

    // Asynchronous: the receipt first, the reply after.
    const receipt = await owner.fetch("POST", "/messages/", {
      conversation: conversationId,
      content: "are you there?",
    });
    expect(receipt.status).toBe(201);
    await waitFor(
      () => messageIds(owner, conversationId),
      (ids) => ids.length === 4,
    );
    await expectEachOnce(owner, conversationId, 4);

    await owner.fetch("POST", `/conversations/${conversationId}/take-over/`);
    await owner.fetch("POST", "/messages/outgoing/", { conversation: conversationId, content: "Sam here." });
    await expectEachOnce(owner, conversationId, 5);
    expect(replied).toHaveLength(2); // the assistant's two replies, not the human's
  });

  it("tell a failed reply once, after the visitor's message is stored", async () => {
    const owner = await seedOwner();
    const model = await upstreamModel(owner, { modelName: `fail-500x99-${crypto.randomUUID()}` });
    const bot = await createChatbot(owner, { largeLanguageModel: model.id });
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "hello" } });
    expect(res.status).toBeGreaterThanOrEqual(500);
    await waitFor(
      async () => failed.length,
      (n) => n === 1,
      5_000,
    );
    const incoming = stored.find((s) => s.id === failed[0]);
    expect(incoming).toMatchObject({ sequence: 1 });
    expect(replied).toEqual([]);
  });
});
