import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { expectError, seedOwner, unique, type Actor } from "../harness";
import { agentWith } from "../support/tool-calls";
import { startedConversation } from "../support/conversation-search";
import { createChatbot } from "../fixtures/chatbots";
import { createDesktopTool } from "../fixtures/tools";
import { upstreamModel } from "../routes/chat-completions/fixtures";
import { client, pub, startSession } from "../routes/widget/fixtures";
import { conversationObject } from "../../src/services/conversations";
import { bodyOf } from "../support/api";

// A conversation's Durable Object reset mid-turn (`ctx.abort()`: a deploy, a crash, an eviction
// that does not wait): what it had stored stays stored once, the sequence goes on without a gap,
// and the client is told. The model is the local upstream pacing its 20 words (`delay-<ms>`).
type Message = { id: string; type: string; sequence: number; content: string };
const messagesOf = async (owner: Actor, conversationId: string) =>
  (
    await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${conversationId}&pageSize=100`))
  ).results.sort((a, b) => a.sequence - b.sequence);
const layout = (messages: Message[]) => messages.map((m) => `${m.sequence}:${m.type}`);

/** Resets the conversation's object as a crash would (in-flight calls fail, memory is lost; storage stays). */
const resetObject = (conversationId: string) =>
  runInDurableObject(conversationObject(env, conversationId), (_instance, state) => state.abort("reset by test")).catch(
    () => undefined,
  );

async function slowBot(owner: Actor, delayMs = 60) {
  const model = await upstreamModel(owner, { modelName: `delay-${delayMs}` });
  return createChatbot(owner, { largeLanguageModel: model.id });
}

/** Reads a response's event stream until `seen(text so far)`, then hands back the reader. */
async function readUntil(res: Response, seen: (text: string) => boolean) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!seen(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`stream ended early: ${text}`);
    text += value;
  }
  return {
    text,
    rest: async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += value;
      }
    },
  };
}

const jsonObject = (text: string): Record<string, unknown> => JSON.parse(text);

const lastEvent = (text: string) => {
  const block = text.trim().split("\n\n").at(-1)!;
  return {
    event: block.match(/^event: (\w+)/m)?.[1] ?? "message",
    data: jsonObject(block.match(/^data: (.*)$/m)![1]),
  };
};

describe("a conversation object reset mid-turn", () => {
  it(
    "a streamed completion ends with event: error carrying the request id; nothing is lost or doubled and the " +
      "sequence goes on",
    async () => {
      const owner = await seedOwner();
      const bot = await slowBot(owner);
      const first = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "start" } }),
      );
      const conversationId = first.conversationId;
      const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        conversation: conversationId,
        message: { content: "slow one" },
        isStreaming: true,
      });
      const stream = await readUntil(res, (t) => t.includes('"done":false'));
      await resetObject(conversationId);
      const end = lastEvent(await stream.rest());
      expect(end).toEqual({
        event: "error",
        data: {
          code: "reply_interrupted",
          detail: expect.stringMatching(/interrupted/),
          requestId: res.headers.get("X-Request-Id"),
        },
      });
      // The visitor's message was stored before the reset; the half-made reply never is.
      expect(layout(await messagesOf(owner, conversationId))).toEqual(["1:incoming", "2:outgoing", "3:incoming"]);
      const next = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        conversation: conversationId,
        message: { content: "after" },
      });
      expect(next.status, await next.clone().text()).toBe(200);
      const messages = await messagesOf(owner, conversationId);
      expect(layout(messages)).toEqual(["1:incoming", "2:outgoing", "3:incoming", "4:incoming", "5:outgoing"]);
      expect(messages.map((m) => m.content).slice(0, 4)).toEqual(["start", expect.any(String), "slow one", "after"]);
    },
  );

  it(
    "a widget visitor is told, cannot resume a reply that died with the object (404), and the next message is " +
      "answered",
    async () => {
      const owner = await seedOwner();
      const bot = await slowBot(owner);
      const inbox = await bodyOf<"POST /inboxes/">(
        await owner.fetch("POST", "/inboxes/", { name: unique("site"), channelType: "web", chatbot: { id: bot.id } }),
      );
      const chatId = inbox.channel!.id;
      expect((await owner.fetch("PATCH", `/web-chats/${chatId}/`, { enableAnonymous: true })).status).toBe(200);
      const visitor = client();
      const session = await startSession(chatId, {}, visitor);
      const res = await visitor.post(pub(chatId, "messages/"), { content: "hello" }, session.token);
      expect(res.status).toBe(200);
      const stream = await readUntil(res, (t) => /^id: [0-9a-f-]{36}:\d+$/m.test(t));
      const [, messageId, offset] = stream.text.match(/^id: ([0-9a-f-]{36}):(\d+)$/m)!;
      const conversationId = JSON.parse(stream.text.match(/^data: (.*)$/m)![1]).conversationId as string;
      await resetObject(conversationId);
      expect(lastEvent(await stream.rest())).toEqual({
        event: "error",
        data: expect.objectContaining({ code: "reply_interrupted", requestId: res.headers.get("X-Request-Id") }),
      });

      const resumed = await visitor.get(pub(chatId, `conversations/${conversationId}/stream/`), session.token, {
        "Last-Event-ID": `${messageId}:${offset}`,
      });
      await expectError(resumed, 404, "not_found");

      const again = await visitor.post(
        pub(chatId, "messages/"),
        { conversation: conversationId, content: "still there?" },
        session.token,
      );
      const done = lastEvent(await (await readUntil(again, () => true)).rest());
      expect(done.data).toMatchObject({ done: true, message: { content: expect.stringMatching(/^word1 /) } });
      const messages = await messagesOf(owner, conversationId);
      expect(layout(messages)).toEqual(["1:incoming", "2:incoming", "3:outgoing"]);
      expect(messages.map((m) => m.content).slice(0, 2)).toEqual(["hello", "still there?"]);
    },
  );

  it("an asynchronous message's reply, lost with the object, is made once by its alarm", async () => {
    const owner = await seedOwner();
    const bot = await slowBot(owner, 40);
    const { conversationId } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "start" } }),
    );
    const receipt = await owner.fetch("POST", "/messages/", {
      conversation: conversationId,
      content: "answer me later",
    });
    expect(receipt.status).toBe(201);
    await new Promise((r) => setTimeout(r, 300)); // the reply is under way (20 words, 40 ms apart)
    await resetObject(conversationId);
    expect(layout(await messagesOf(owner, conversationId))).toEqual(["1:incoming", "2:outgoing", "3:incoming"]);

    const stub = conversationObject(env, conversationId);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const messages = await messagesOf(owner, conversationId);
    expect(layout(messages)).toEqual(["1:incoming", "2:outgoing", "3:incoming", "4:outgoing"]);
    expect(messages[3].content).toMatch(/^word1 .* word20$/);
    // It may still be set (it was set again before replying): nothing is owed any more.
    await runDurableObjectAlarm(stub);
    expect(layout(await messagesOf(owner, conversationId))).toHaveLength(4);
  });

  it("a reply's continuation after its desktop tool results, lost with the object, is made by its alarm", async () => {
    const owner = await seedOwner();
    const desktop = await createDesktopTool(owner);
    // The continuation's words come 150 ms apart: it is still being written when the object is reset.
    const model = await upstreamModel(owner, { modelName: "delay-150" });
    const bot = await agentWith(owner, [desktop], model);
    const reply = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        message: { content: 'open_file ARGS {"path": "/tmp/a.txt"}', metadata: { clientPlatform: "desktop" } },
      }),
    );
    const [call] = (reply.message!.contentPayload as { pendingToolCalls: string[] }).pendingToolCalls;
    const posted = await owner.fetch("POST", `/tool-execution-records/${call}/result/`, { output: { bytes: 12 } });
    expect(posted.status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    await resetObject(reply.conversationId);
    expect(layout(await messagesOf(owner, reply.conversationId))).toEqual(["1:incoming", "2:outgoing"]);

    const stub = conversationObject(env, reply.conversationId);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const messages = await messagesOf(owner, reply.conversationId);
    expect(layout(messages)).toEqual(["1:incoming", "2:outgoing", "3:outgoing"]);
    expect(messages[2].content).toBe('Result: {"bytes":12}');
    // Stored: nothing is owed any more, and a later alarm continues nothing again.
    await runDurableObjectAlarm(stub);
    expect(layout(await messagesOf(owner, reply.conversationId))).toHaveLength(3);
  });

  it("an alarm never answers again a message whose reply was stored just before the reset", async () => {
    const owner = await seedOwner();
    const { conversationId } = await startedConversation(owner);
    const incoming = await bodyOf<"POST /messages/">(
      await owner.fetch("POST", "/messages/", { conversation: conversationId, content: "owed" }),
    );
    let stored: Message[] = [];
    for (let i = 0; i < 100 && stored.length < 4; i++) stored = await messagesOf(owner, conversationId);
    expect(layout(stored)).toEqual(["1:incoming", "2:outgoing", "3:incoming", "4:outgoing"]);
    // The instance died after storing the reply but before forgetting that it owed one.
    await runInDurableObject(conversationObject(env, conversationId), async (_instance, state) => {
      state.storage.kv.put("pendingReply", { incomingId: incoming.id, attempts: 0 });
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    await resetObject(conversationId);
    const stub = conversationObject(env, conversationId); // a stub that saw its object reset stays broken
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(layout(await messagesOf(owner, conversationId))).toEqual([
      "1:incoming",
      "2:outgoing",
      "3:incoming",
      "4:outgoing",
    ]);
    expect(
      await runInDurableObject(stub, (_instance, state) => state.storage.kv.get("pendingReply") ?? null),
    ).toBeNull();
  });

  it(
    "a burst of messages cut by a reset: each stored once, the sequence gapless, every stored message answered " +
      "once",
    async () => {
      const owner = await seedOwner();
      const { conversationId } = await startedConversation(owner);
      let receipts = 0;
      let reset: Promise<unknown> | null = null;
      const sent = await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const res = await owner.fetch("POST", "/messages/", { conversation: conversationId, content: `burst ${i}` });
          if (res.status === 201 && ++receipts === 10) reset = resetObject(conversationId);
          return { content: `burst ${i}`, status: res.status, body: await res.text() };
        }),
      );
      await reset;
      // What the caller was told: stored (201), or a 503 it may send again after.
      for (const s of sent) expect([201, 503], s.body).toContain(s.status);
      expect(sent.filter((s) => s.status === 503).every((s) => JSON.parse(s.body).code === "interrupted")).toBe(true);
      await runDurableObjectAlarm(conversationObject(env, conversationId)); // the reply owed when it died, if any
      const messages = await messagesOf(owner, conversationId);
      expect(messages.map((m) => m.sequence)).toEqual(messages.map((_, i) => i + 1));
      const contents = messages.filter((m) => m.type === "incoming").map((m) => m.content);
      expect(new Set(contents).size).toBe(contents.length);
      for (const s of sent.filter((s) => s.status === 201)) expect(contents).toContain(s.content);
      expect(messages.map((m) => m.type)).toEqual(messages.map((_, i) => (i % 2 ? "outgoing" : "incoming")));
    },
  );
});
