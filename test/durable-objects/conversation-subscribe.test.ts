import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedOwner } from "../harness";
import { startedConversation } from "../support/conversation-search";

describe("live subscribers of a conversation", () => {
  it(
    "receive the visitor's message, the reply's deltas and the stored reply; and whether a reply is under way: " +
      "first, as it begins, once it is stored",
    async () => {
      const owner = await seedOwner();
      const { bot, conversationId } = await startedConversation(owner);
      const stream = await env.CONVERSATION.get(env.CONVERSATION.idFromName(conversationId)).subscribe();
      const reader = stream.pipeThrough(new TextDecoderStream()).getReader();

      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        conversation: conversationId,
        message: { content: "hello there" },
      });
      let text = "";
      while (!/"type":"outgoing"[\s\S]*event: replying\ndata: \{"replying":false\}/.test(text)) {
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
      const replying = events.filter((e) => e.event === "replying");
      expect(replying.map((e) => e.data)).toEqual([{ replying: false }, { replying: true }, { replying: false }]);
      expect(events.indexOf(replying[1])).toBe(2); // after the visitor's message it answers
      events.splice(0, events.length, ...events.filter((e) => e.event !== "replying"));
      expect(events[0]).toMatchObject({
        event: "message",
        data: { type: "incoming", content: "hello there", sequence: 3 },
      });
      const deltas = events.filter((e) => e.event === "delta");
      const stored = events.at(-1)!;
      expect(stored).toMatchObject({ event: "message", data: { type: "outgoing", sequence: 4 } });
      expect(deltas.map((e) => e.data.content).join("")).toBe(stored.data.content);
    },
  );
});
