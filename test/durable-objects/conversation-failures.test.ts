import { describe, expect, it } from "vitest";
import { abortAllDurableObjects, env } from "cloudflare:test";
import { seedOwner, type Actor } from "../harness";
import { createChatbot, LOCAL_LLM } from "../fixtures/chatbots";
import { enableGateway, upstreamModel } from "../routes/chat-completions/fixtures";
import { readEvents } from "../support/sse";
import { bodyOf, problemOf } from "../support/api";

const listMessages = async (owner: Actor, conversationId: string) =>
  (
    await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${conversationId}&pageSize=100`))
  ).results.sort((a, b) => a.sequence - b.sequence);

async function botOn(owner: Actor, modelName: string) {
  await enableGateway(owner.organizationId, false);
  const model = await upstreamModel(owner, { modelName });
  const bot = await createChatbot(owner, { largeLanguageModel: model.id });
  const first = (await (
    await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "start" }, isStreaming: true })
  ).text()) as string;
  const conversationId = JSON.parse(
    first
      .split("\n")
      .find((l) => l.startsWith("data:"))!
      .slice(5),
  ).conversationId as string;
  return { bot, conversationId };
}

describe("a reply that fails half-way leaves no partial message", () => {
  it("an upstream that drops mid-stream: event: error, then only the visitor's message is stored", async () => {
    const owner = await seedOwner();
    const { bot, conversationId } = await botOn(owner, "fail-midstream");
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      conversation: conversationId,
      message: { content: "hello" },
      isStreaming: true,
    });
    const events = await readEvents(res);
    expect(events.filter((e) => e.event === "message" && e.data.done === false).length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ event: "error", data: { code: "upstream_error" } });
    expect((await listMessages(owner, conversationId)).filter((m) => m.type === "outgoing")).toEqual([]);

    // Non-streaming: 502, and again nothing half-written.
    const direct = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      conversation: conversationId,
      message: { content: "again" },
    });
    expect(direct.status).toBe(502);
    expect((await problemOf(direct)).code).toBe("upstream_error");
    const stored = await listMessages(owner, conversationId);
    expect(stored.map((m) => m.type)).toEqual(["incoming", "incoming", "incoming"]);

    // The conversation goes on in order once the assistant has a working model.
    await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { largeLanguageModel: LOCAL_LLM });
    await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      conversation: conversationId,
      message: { content: "fine now" },
    });
    expect((await listMessages(owner, conversationId)).map((m) => `${m.sequence}:${m.type}`)).toEqual([
      "1:incoming",
      "2:incoming",
      "3:incoming",
      "4:incoming",
      "5:outgoing",
    ]);
  });

  it("the conversation's object dies mid-reply: no outgoing message; the next turn goes on in sequence", async () => {
    const owner = await seedOwner();
    const { bot, conversationId } = await botOn(owner, "delay-100");
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      conversation: conversationId,
      message: { content: "slow one" },
      isStreaming: true,
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes('"done":false')) text += (await reader.read()).value ?? "";
    await abortAllDurableObjects();
    await reader.read().catch(() => undefined);
    await reader.cancel().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 2500)); // longer than the rest of the reply would have taken
    // Before: the first turn (1, 2); the slow turn's visitor message (3) and no reply to it.
    expect((await listMessages(owner, conversationId)).map((m) => `${m.sequence}:${m.type}`)).toEqual([
      "1:incoming",
      "2:outgoing",
      "3:incoming",
    ]);
    await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { largeLanguageModel: LOCAL_LLM });
    const next = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        conversation: conversationId,
        message: { content: "after" },
      }),
    );
    expect(next.message!.sequence).toBe(5);
  });

  it(
    "a turn that cannot begin (its conversation is gone) ends its stream with event: error, never leaves it " + "open",
    async () => {
      const conversationId = crypto.randomUUID();
      const object = env.CONVERSATION.get(env.CONVERSATION.idFromName(conversationId));
      const stream = await object.stream({
        organizationId: crypto.randomUUID(),
        conversationId,
        sender: { type: "contact", id: null, name: "Visitor", avatar: null },
        message: { content: "hello" },
        requestId: "req-1",
      });
      const events = await readEvents(new Response(stream));
      expect(events).toEqual([
        {
          event: "error",
          data: { detail: "The reply failed.", code: "server_error", requestId: "req-1", conversationId },
        },
      ]);
    },
  );
});
