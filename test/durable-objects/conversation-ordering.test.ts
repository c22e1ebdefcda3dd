import { describe, expect, it } from "vitest";
import { seedOwner, type Actor } from "../harness";
import { startedConversation } from "../support/conversation-search";
import { bodyOf } from "../support/api";

type Message = { type: string; sequence: number; content: string; senderType: string; createdAt: string };

async function allMessages(actor: Actor, conversationId: string): Promise<Message[]> {
  const out: Message[] = [];
  let url: string | null = `/messages/?conversation=${conversationId}&pageSize=100`;
  while (url) {
    const page: { next: string | null; results: Message[] } = await (await actor.fetch("GET", url)).json();
    out.push(...page.results);
    url = page.next ? page.next.replace(/^http:\/\/localhost\/api\/v1/, "") : null;
  }
  return out.sort((a, b) => a.sequence - b.sequence);
}

function expectStrictAlternation(messages: Message[], turns: number) {
  expect(messages).toHaveLength(2 * turns);
  expect(messages.map((m) => m.sequence)).toEqual(Array.from({ length: 2 * turns }, (_, i) => i + 1));
  messages.forEach((m, i) => {
    expect(m.type, `message ${i + 1}`).toBe(i % 2 === 0 ? "incoming" : "outgoing");
  });
  // Each reply answers the message just before it.
  for (let i = 0; i < messages.length; i += 2)
    expect(messages[i + 1].content).toBe(`You said: "${messages[i].content}".`);
  expect(new Set(messages.filter((m) => m.type === "incoming").map((m) => m.content)).size).toBe(turns);
}

describe("one Durable Object per conversation orders its messages", () => {
  it("20 concurrent completions end as 20 incoming and 20 outgoing messages in strict alternation", async () => {
    const owner = await seedOwner();
    const { bot, conversationId } = await startedConversation(owner);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
          conversation: conversationId,
          message: { content: `message ${i}` },
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const messages = await allMessages(owner, conversationId);
    expectStrictAlternation(messages, 21);
    // The runtime's clock stands still between I/O, so a reply and the next visitor's message are
    // often made in the same millisecond: the object still gives each a later time than the one before.
    for (let i = 1; i < messages.length; i++)
      expect(Number(messages[i].createdAt), `message ${i + 1}`).toBeGreaterThan(Number(messages[i - 1].createdAt));
    const conversation = await bodyOf<"GET /conversations/{id}/">(
      await owner.fetch("GET", `/conversations/${conversationId}/`),
    );
    expect(conversation.lastMessage).toBe(messages.at(-1)!.content);
  });

  it("20 concurrent asynchronous messages get their receipts, then 20 replies in strict alternation", async () => {
    const owner = await seedOwner();
    const { conversationId } = await startedConversation(owner);
    const receipts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        owner.fetch("POST", "/messages/", { conversation: conversationId, content: `async ${i}` }),
      ),
    );
    expect(receipts.map((r) => r.status)).toEqual(Array(20).fill(201));
    for (const r of receipts) expect((await bodyOf<"POST /messages/">(r)).type).toBe("incoming");
    let messages: Message[] = [];
    for (let attempt = 0; attempt < 50 && messages.length < 42; attempt++) {
      messages = await allMessages(owner, conversationId);
      if (messages.length < 42) await new Promise((r) => setTimeout(r, 50));
    }
    expectStrictAlternation(messages, 21);
  });
});
