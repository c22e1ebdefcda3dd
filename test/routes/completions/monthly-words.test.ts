import { describe, expect, it } from "vitest";
import { countInParts, expectError, seedOwner, type Actor, type Settings } from "../../harness";
import { sent, telegramInbox, textUpdate, updateThroughConsumer } from "../../channels/telegram-support";
import { createChatbot } from "../../fixtures/chatbots";
import { bodyOf, refinedBodyOf } from "../../support/api";
import { createDesktopTool } from "../../fixtures/tools";
import { agentWith, type ToolCall } from "../../support/tool-calls";
import { readEvents } from "../../support/sse";
import { client, pub, seedWebChat, startSession } from "../widget/fixtures";

/** An operator's plan of 5 words a month, every organization's (its stored plan id is not configured). */
const TINY: Settings = {
  PLANS: JSON.stringify({ tiny: { planName: "Tiny", monthlyWords: 5 } }),
  DEFAULT_PLAN: "tiny",
};

const completions = (chatbotId: string) => `/chatbots/${chatbotId}/completions/`;

const usedWords = async (owner: Actor) =>
  (
    await bodyOf<"GET /organizations/{id}/">(
      await owner.fetch("GET", `/organizations/${owner.organizationId}/`, undefined, { settings: TINY }),
    )
  ).usageStatistics;

/** An organization whose 5 words of the month are used by one answered completion. */
async function wordsUsedUp() {
  const owner = await seedOwner();
  const bot = await createChatbot(owner);
  const first = await owner.fetch(
    "POST",
    completions(bot.id),
    { message: { content: "Where is my parcel today?" } },
    { settings: TINY },
  );
  expect(first.status, await first.clone().text()).toBe(200);
  const usage = await usedWords(owner);
  expect(usage.currentMonthWordsCountTotal).toBe(5);
  expect(usage.currentMonthUsedWordsCountTotal).toBeGreaterThanOrEqual(5);
  return { owner, bot };
}

describe("a plan's monthly words (PLANS monthlyWords)", () => {
  it("once used, a completion is 403 naming the plan and month, stores nothing; without plans it answers", async () => {
    const { owner, bot } = await wordsUsedUp();
    const conversations = await countInParts(
      owner.organizationId,
      "conversations",
      "organization_id = ?1",
      owner.organizationId,
    );
    for (const isStreaming of [false, true]) {
      const err = await expectError(
        await owner.fetch(
          "POST",
          completions(bot.id),
          { message: { content: "And tomorrow?" }, isStreaming },
          { settings: TINY },
        ),
        403,
        "permission_denied",
      );
      expect(err.detail).toMatch(
        /^The Tiny plan's 5 words of \d{4}-\d{2} are used \(\d+\): the assistants answer again/,
      );
    }
    expect(
      await countInParts(owner.organizationId, "conversations", "organization_id = ?1", owner.organizationId),
    ).toBe(conversations);
    // The same organization on a deployment without plans: nothing limits it.
    const res = await owner.fetch("POST", completions(bot.id), { message: { content: "And tomorrow?" } });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it("a visitor's widget message is stored and not answered; the stream's error names the stored message", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const visitor = client();
    const session = await startSession(chat.id, {}, visitor);
    const send = async (content: string, conversation?: string) =>
      readEvents(await visitor.post(pub(chat.id, "messages/"), { content, conversation }, session.token, {}, TINY));
    // Answered while words are left; the reply's words use them up.
    const answered = await send("Where is my parcel today?");
    const done = answered.find((e) => e.data?.done);
    expect(done?.data?.message).toBeTruthy();
    const conversationId = done!.data!.conversationId as string;
    const refused = await send("And tomorrow?", conversationId);
    const error = refused.find((e) => e.event === "error");
    expect(error?.data).toMatchObject({ code: "permission_denied", conversationId });
    expect(String(error?.data?.detail)).toContain("Tiny plan's 5 words");
    const incomingId = error!.data!.incomingId as string;
    expect(refused.some((e) => e.data?.done)).toBe(false);
    const messages = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${conversationId}`),
    );
    const contents = messages.results.map((m) => [m.id, m.type, m.content]);
    // Newest first: the visitor's message is kept (the team sees it), with no reply after it.
    expect(contents[0]).toEqual([incomingId, "incoming", "And tomorrow?"]);
    expect(contents.filter(([, type]) => type === "outgoing")).toHaveLength(1);
  });

  it("a message posted through the API is stored and not answered", async () => {
    const { owner, bot } = await wordsUsedUp();
    const started = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), { message: { content: "Hello there" } }),
    );
    const posted = await owner.fetch(
      "POST",
      "/messages/",
      { conversation: started.conversationId, content: "Still there?" },
      { settings: TINY },
    );
    expect(posted.status, await posted.clone().text()).toBe(201);
    const stored = await bodyOf<"POST /messages/">(posted);
    // A reply would be stored within moments: the conversation's last message stays the visitor's.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const messages = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${started.conversationId}`),
    );
    expect(messages.results.map((m) => m.type)).toEqual(["incoming", "outgoing", "incoming"]);
    expect(messages.results[0]?.id).toBe(stored.id);
  });

  it("a channel's message is stored and not answered: nothing goes back to the platform", async () => {
    const { owner, token, inbox } = await telegramInbox();
    const other = await createChatbot(owner);
    const used = await owner.fetch("POST", completions(other.id), {
      message: { content: "Where is my parcel today?" },
    });
    expect(used.status, await used.clone().text()).toBe(200);
    // The update as the platform sends it, its queue work handed to the consumer with the plan set.
    const work = await updateThroughConsumer(token, inbox.path, textUpdate("Is my parcel here yet?"), TINY);
    expect(work).toHaveLength(1);
    const conversations = await bodyOf<"GET /conversations/">(
      await owner.fetch("GET", `/conversations/?inbox=${inbox.inboxId}`),
    );
    expect(conversations.results).toHaveLength(1);
    const conversationId = conversations.results[0].id;
    // A reply would be stored within moments, and sent to Telegram.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const messages = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${conversationId}`),
    );
    expect(messages.results.map((m) => [m.type, m.content])).toEqual([["incoming", "Is my parcel here yet?"]]);
    expect(await sent(token, "sendMessage")).toEqual([]);
  });
});

describe("a desktop tool's result once the month's words are used", () => {
  it("is stored, the record completed, and the reply does not continue: 403 as a first turn", async () => {
    const owner = await seedOwner();
    const bot = await agentWith(owner, [await createDesktopTool(owner)]);
    // The reply asks the desktop client (words are left then)...
    const asked = await owner.fetch(
      "POST",
      completions(bot.id),
      { message: { content: "open file path: /tmp/a.txt", metadata: { clientPlatform: "desktop" } } },
      { settings: TINY },
    );
    expect(asked.status, await asked.clone().text()).toBe(200);
    const reply = await refinedBodyOf<
      "POST /chatbots/{chatbotId}/completions/",
      { conversationId: string; message: { id: string; contentPayload: { toolCalls: ToolCall[] } } }
    >(asked);
    const [call] = reply.message.contentPayload.toolCalls;
    expect(call).toMatchObject({ name: "open_file", status: "pending" });
    // ...and another conversation's answer uses them up while the client runs the tool.
    const other = await owner.fetch(
      "POST",
      completions(bot.id),
      { message: { content: "Where is my parcel today?" } },
      { settings: TINY },
    );
    expect(other.status, await other.clone().text()).toBe(200);
    const used = (await usedWords(owner)).currentMonthUsedWordsCountTotal;
    expect(used).toBeGreaterThanOrEqual(5);
    const err = await expectError(
      await owner.fetch(
        "POST",
        `/tool-execution-records/${call.id}/result/`,
        { output: { bytes: 12 } },
        {
          settings: TINY,
        },
      ),
      403,
      "permission_denied",
    );
    expect(err.detail).toContain("Tiny plan's 5 words");
    // The client's output is kept and the call is no longer pending: the conversation's next message reads it.
    const record = await bodyOf<"GET /tool-execution-records/{id}/">(
      await owner.fetch("GET", `/tool-execution-records/${call.id}/`),
    );
    expect(record).toMatchObject({ status: "success", output: { bytes: 12 } });
    // A continuation would be stored within moments, its words counted.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const messages = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${reply.conversationId}`),
    );
    expect(messages.results.filter((m) => m.type === "outgoing").map((m) => m.id)).toEqual([reply.message.id]);
    expect((await usedWords(owner)).currentMonthUsedWordsCountTotal).toBe(used);
  });
});
