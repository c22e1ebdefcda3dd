import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedOwner } from "../harness";
import { startedConversation } from "../support/conversation-search";

describe("live subscribers of a conversation", () => {
  it("receive the visitor's message, the reply's deltas and the stored reply", async () => {
    const owner = await seedOwner();
    const { bot, conversationId } = await startedConversation(owner);
    const stream = await env.CONVERSATION.get(env.CONVERSATION.idFromName(conversationId)).subscribe();
    const reader = stream.pipeThrough(new TextDecoderStream()).getReader();

    await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      conversation: conversationId,
      message: { content: "hello there" },
    });
    let text = "";
    while (!/event: message[\s\S]*event: message/.test(text) || !text.trimEnd().endsWith("}")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    await reader.cancel();
    const events = text
      .trim()
      .split("\n\n")
      .map((block) => ({
        event: block.match(/^event: (\w+)/m)![1],
        data: JSON.parse(block.match(/^data: (.*)$/m)![1]),
      }));
    expect(events[0]).toMatchObject({
      event: "message",
      data: { type: "incoming", content: "hello there", sequence: 3 },
    });
    const deltas = events.filter((e) => e.event === "delta");
    const stored = events.at(-1)!;
    expect(stored).toMatchObject({ event: "message", data: { type: "outgoing", sequence: 4 } });
    expect(deltas.map((e) => e.data.content).join("")).toBe(stored.data.content);
  });
});
