import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { abortAllDurableObjects } from "cloudflare:test";
import type { conversations } from "../../src/db/schema";
import { conversationObject, takeOverState } from "../../src/services/conversations";
import { conversationRow, seedOwner, unique, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { lastUpstreamRequest, upstreamModel } from "../routes/chat-completions/fixtures";
import { bodyOf } from "../support/api";

const say = async (owner: Actor, botId: string, content: string, conversation?: string) =>
  await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
    await owner.fetch("POST", `/chatbots/${botId}/completions/`, { conversation, message: { content } }),
  );

/** The assistant's auto reply turned off through the API (a handoff to humans). */
const handOff = async (owner: Actor, conversationId: string) =>
  expect(
    (await owner.fetch("PATCH", `/conversations/${conversationId}/update-auto-reply/`, { autoReplyEnabled: false }))
      .status,
  ).toBe(200);

/** A visitor's message handed to the object straight, with `row` as the caller's copy of the conversation. */
const visitorTurn = (row: typeof conversations.$inferSelect, content: string) => ({
  organizationId: row.organizationId,
  conversationId: row.id,
  conversation: row,
  sender: { type: "contact" as const, id: null, name: "Visitor", avatar: null },
  message: { content },
});

// The object keeps the conversation's latest messages in memory after its first load, and takes
// the conversation row from its caller when that row is current (durable-objects/conversation.ts, #load).
describe("the conversation object's memory", () => {
  it("the model gets the whole history, in order, from memory and again after the object restarts", async () => {
    const owner = await seedOwner();
    const modelName = unique("history");
    const model = await upstreamModel(owner, { modelName });
    const bot = await createChatbot(owner, { largeLanguageModel: model.id, instructions: "Be brief." });
    const first = await say(owner, bot.id, "one");
    const second = await say(owner, bot.id, "two", first.conversationId);
    await say(owner, bot.id, "three", first.conversationId);
    const turns = [
      { role: "system", content: "Be brief." },
      { role: "user", content: "one" },
      { role: "assistant", content: first.content },
      { role: "user", content: "two" },
      { role: "assistant", content: second.content },
      { role: "user", content: "three" },
    ];
    expect((await lastUpstreamRequest(modelName)).body.messages).toEqual(turns);

    // A new instance reads the history from D1: same prompt, and the sequence goes on.
    await abortAllDurableObjects();
    await say(owner, bot.id, "four", first.conversationId);
    const { messages } = (await lastUpstreamRequest(modelName)).body;
    expect(messages.slice(0, 6)).toEqual(turns);
    expect(messages.slice(6).map((m) => m.role)).toEqual(["assistant", "user"]);
    expect(messages.at(-1)!.content).toBe("four");
    const listed = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${first.conversationId}&pageSize=100`),
    );
    expect(listed.results.map((m) => m.sequence).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("a caller's row read before the object's latest write is read again, so a later handoff is obeyed", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const { conversationId } = await say(owner, bot.id, "hello");
    const before = await conversationRow(owner.organizationId, conversationId);
    expect(before.autoReplyEnabled).toBe(true);

    await handOff(owner, conversationId);
    // Silent: the object's latest write is this message.
    expect((await say(owner, bot.id, "anyone there?", conversationId)).content).toBe("");

    // Handing the object the row read before both: it must not trust it (auto reply on, older last message).
    const result = await conversationObject(env, conversationId).converse(visitorTurn(before, "still there?"));
    expect(result.incoming.sequence).toBe(4);
    expect(result.reply).toBeNull();
    const after = await conversationRow(owner.organizationId, conversationId);
    expect(after).toMatchObject({
      autoReplyEnabled: false,
      status: "queued",
      progressStatus: "waiting_for_human",
      lastMessage: "still there?",
    });
  });

  it("a take-over while a streamed turn holds back the visitor's message is not undone by that message", async () => {
    const owner = await seedOwner();
    // Slow when asked for a story: the turn is under way while the take-over is written.
    const model = await upstreamModel(owner, { modelName: "story-100" });
    const bot = await createChatbot(owner, { largeLanguageModel: model.id });
    const { conversationId } = await say(owner, bot.id, "hello");
    await say(owner, bot.id, "hello again", conversationId); // through the object: it holds the row, no read
    const row = await conversationRow(owner.organizationId, conversationId);
    const object = conversationObject(env, conversationId);
    // Streamed, the visitor's message is written VISITOR_WRITE_DELAY_MS after the turn starts: the take-over is first.
    const streamed = object.stream(visitorTurn(row, "Tell me a story"));
    await object.change(row, takeOverState(owner.userId), { name: "Olga", avatar: null });
    await (await streamed).pipeTo(new WritableStream());
    expect(await conversationRow(owner.organizationId, conversationId)).toMatchObject({
      status: "open",
      progressStatus: "human_serving",
      autoReplyEnabled: false,
      assigneeId: owner.userId,
    });
  });

  it("a caller's row read before a handoff is not trusted, even with no message since", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const { conversationId } = await say(owner, bot.id, "hello");
    const before = await conversationRow(owner.organizationId, conversationId);
    await handOff(owner, conversationId);

    // Same last message as the object's newest, but read before the handoff: read again, stay silent.
    const result = await conversationObject(env, conversationId).converse(visitorTurn(before, "hi again"));
    expect(result.reply).toBeNull();
    const after = await conversationRow(owner.organizationId, conversationId);
    expect(after).toMatchObject({ autoReplyEnabled: false, status: "queued", progressStatus: "waiting_for_human" });
  });
});
