import { describe, expect, it } from "vitest";
import { seedOwner } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { createContact } from "../contacts/fixtures";
import { bodyOf } from "../../support/api";

// A continuing completion's conversation and contact are remembered per isolate (services/chatbots/for-reply.ts,
// readForReply): a change through the API shows in the very next turn, and the conversation's
// object brings a remembered row up to date from its own writes.
describe("what a continuing completion remembers", () => {
  it("a contact renamed through the API names the very next visitor message", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const contact = await createContact(owner, { name: "Ada" });
    const say = async (content: string, conversation?: string) =>
      await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
          conversation,
          message: { content, ...(conversation ? {} : { sender: contact.id }) },
        }),
      );
    const { conversationId } = await say("one");
    await say("two", conversationId);
    expect((await owner.fetch("PATCH", `/contacts/${contact.id}/`, { name: "Ada Lovelace" })).status).toBe(200);
    await say("three", conversationId);
    const page = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${conversationId}&pageSize=100`),
    );
    const visitors = page.results.filter((m) => m.type === "incoming").sort((a, b) => a.sequence - b.sequence);
    expect(visitors.map((m) => m.sender)).toEqual([
      { id: contact.id, name: "Ada", avatar: null },
      { id: contact.id, name: "Ada", avatar: null },
      { id: contact.id, name: "Ada Lovelace", avatar: null },
    ]);
  });

  it("turns from a remembered row go on in sequence, and a handoff through the API is obeyed at once", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const say = async (content: string, conversation?: string) =>
      await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { conversation, message: { content } }),
      );
    const { conversationId } = await say("one");
    for (const [i, content] of ["two", "three", "four"].entries())
      expect((await say(content, conversationId)).message!.sequence).toBe(4 + 2 * i);
    expect(
      (await owner.fetch("PATCH", `/conversations/${conversationId}/update-auto-reply/`, { autoReplyEnabled: false }))
        .status,
    ).toBe(200);
    const silent = await say("anyone?", conversationId);
    expect(silent).toMatchObject({ content: "", message: null });
  });
});
