import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { liveEvents, type InboxStreamEvent } from "../../support/sse";
import { afterMessage, newConversation } from "../../../src/services/conversations";
import { WEEKDAYS, type BusinessHours } from "../../../src/services/business-hours";
import { bodyOf } from "../../support/api";

const get = async (actor: Actor, id: string) =>
  await bodyOf<"GET /conversations/{id}/">(await actor.fetch("GET", `/conversations/${id}/`));
const inboxUnread = async (actor: Actor, inbox: string) =>
  (await bodyOf<"GET /inboxes/{id}/">(await actor.fetch("GET", `/inboxes/${inbox}/`))).unreadConversationsCount;

async function conversationOf(owner: Actor, options: { test?: boolean } = {}) {
  const bot = await createChatbot(owner);
  const say = async (content: string, conversation?: string) =>
    await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        ...(conversation ? { conversation } : {}),
        message: { content },
        ...(options.test ? { test: true } : {}),
      }),
    );
  const first = await say("hello");
  return { bot, id: first.conversationId, say: (content: string) => say(content, first.conversationId) };
}

describe("unread counts", () => {
  it(
    "a visitor's message adds one; the assistant's replies and an agent's replies add none; read/ sets 0 under " +
      "both prefixes",
    async () => {
      const owner = await seedOwner();
      const { bot, id, say } = await conversationOf(owner);
      const inbox = bot.defaultInbox!.id;
      expect(await get(owner, id)).toMatchObject({ unreadCount: 1 });
      await say("and another thing");
      expect(await get(owner, id)).toMatchObject({ unreadCount: 2 });
      expect(await inboxUnread(owner, inbox)).toBe(1);

      await owner.fetch("POST", `/conversations/${id}/take-over/`);
      const agent = await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Sam here" });
      expect(agent.status, await agent.clone().text()).toBe(201);
      expect(await get(owner, id)).toMatchObject({ unreadCount: 2 });

      for (const prefix of PREFIXES) {
        const read = await owner.fetch("POST", `/conversations/${id}/read/`, undefined, { prefix });
        expect(read.status, await read.clone().text()).toBe(200);
        expect(await read.json()).toMatchObject({ id, unreadCount: 0, progressStatus: "human_serving" });
      }
      expect(await get(owner, id)).toMatchObject({ unreadCount: 0 });
      expect(await inboxUnread(owner, inbox)).toBe(0);
      await say("thanks!");
      expect(await get(owner, id)).toMatchObject({ unreadCount: 1 });
      expect(await inboxUnread(owner, inbox)).toBe(1);
    },
  );

  it("the team's test conversations (the try-it) never count as unread", async () => {
    const owner = await seedOwner();
    const { bot, id, say } = await conversationOf(owner, { test: true });
    await say("still testing");
    expect(await get(owner, id)).toMatchObject({ unreadCount: 0 });
    expect(await inboxUnread(owner, bot.defaultInbox!.id)).toBe(0);
  });

  it(
    "counts what a message leaves: a visitor's +1; a private note, a member's, the assistant's, a test " +
      "conversation's 0",
    () => {
      const row = {
        ...newConversation({ organizationId: "o", inboxId: "i", chatbotId: null, contactId: null }),
        unreadCount: 3,
      };
      const at = { createdAt: Date.now(), content: "x", contentPayload: null };
      expect(afterMessage(row, { ...at, type: "incoming", senderType: "contact" }).unreadCount).toBe(4);
      expect(afterMessage(row, { ...at, type: "outgoing", senderType: "user", private: true }).unreadCount).toBe(3);
      expect(afterMessage(row, { ...at, type: "incoming", senderType: "contact", private: true }).unreadCount).toBe(3);
      expect(afterMessage(row, { ...at, type: "outgoing", senderType: "user" }).unreadCount).toBe(3);
      expect(afterMessage(row, { ...at, type: "outgoing", senderType: "chatbot" }).unreadCount).toBe(3);
      expect(
        afterMessage({ ...row, isTest: true }, { ...at, type: "incoming", senderType: "contact" }).unreadCount,
      ).toBe(3);
    },
  );

  it("read/ publishes conversation.updated with unreadCount 0 live; message events carry the count", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch("GET", `/organizations/${owner.organizationId}/conversation-events/`);
    const events = liveEvents<InboxStreamEvent>(res);
    expect((await events.next()).event).toBe("ready");
    const { id, say } = await conversationOf(owner);
    const ofIt = (e: { data: { conversation: { id: string } } }) => e.data.conversation.id === id;
    await say("second");
    const incoming = await events.next("message.created", (e) => ofIt(e) && e.data.message.content === "second");
    expect(incoming.data.conversation).toMatchObject({ unreadCount: 2 });
    await owner.fetch("POST", `/conversations/${id}/read/`);
    const read = await events.next("conversation.updated", ofIt);
    expect(read.data.conversation).toMatchObject({ id, unreadCount: 0 });
    expect(read.data).not.toHaveProperty("changes");
    await events.close();
  });

  it(
    "read/: 401 without a key, 403 without conversation.view, 404 for another organization's or no " +
      "conversation; nothing changes",
    async () => {
      const owner = await seedOwner();
      const other = await seedOwner();
      const { id } = await conversationOf(owner);
      const stranger = await seedMember(owner, ["chatbot.view"]);
      await expectError(await call("POST", `/api/v1/conversations/${id}/read/`), 401);
      await expectError(await stranger.fetch("POST", `/conversations/${id}/read/`), 403);
      await expectError(await other.fetch("POST", `/conversations/${id}/read/`), 404);
      await expectError(await owner.fetch("POST", `/conversations/${NO_SUCH_ID}/read/`), 404);
      await expectError(await owner.fetch("POST", `/conversations/nope/read/`), 404);
      expect(await get(owner, id)).toMatchObject({ unreadCount: 1 });
      const viewer = await seedMember(owner, ["conversation.view"]);
      expect(await (await viewer.fetch("POST", `/conversations/${id}/read/`)).json()).toMatchObject({ unreadCount: 0 });
    },
  );
});

describe("unread-conversations/", () => {
  const path = (organizationId: string) => `/organizations/${organizationId}/unread-conversations/`;

  it(
    "counts conversations with unread messages per inbox (by name) for a member with conversation.view alone, " +
      "under both prefixes; read/ lowers it",
    async () => {
      const owner = await seedOwner();
      const shop = await conversationOf(owner);
      await conversationOf(owner, { test: true }); // the try-it's: never counted
      const api = await conversationOf(owner);
      const second = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", `/chatbots/${shop.bot.id}/completions/`, { message: { content: "me too" } }),
      );
      // An agent who reads conversations but may not list inboxes.
      const agent = await seedMember(owner, ["conversation.view"]);
      expect((await agent.fetch("GET", "/inboxes/")).status).toBe(403);
      const inboxOf = (bot: typeof shop.bot) => ({ id: bot.defaultInbox!.id, name: bot.defaultInbox!.name });
      const expected = [
        { ...inboxOf(shop.bot), count: 2 },
        { ...inboxOf(api.bot), count: 1 },
      ].sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
      for (const prefix of PREFIXES) {
        const res = await agent.fetch("GET", path(owner.organizationId), undefined, { prefix });
        expect(res.status, await res.clone().text()).toBe(200);
        expect(await res.json()).toEqual({ count: 3, inboxes: expected });
      }
      await owner.fetch("POST", `/conversations/${second.conversationId}/read/`);
      await owner.fetch("POST", `/conversations/${api.id}/read/`);
      expect(await (await agent.fetch("GET", path(owner.organizationId))).json()).toEqual({
        count: 1,
        inboxes: [{ ...inboxOf(shop.bot), count: 1 }],
      });
      await owner.fetch("POST", `/conversations/${shop.id}/read/`);
      expect(await (await agent.fetch("GET", path(owner.organizationId))).json()).toEqual({ count: 0, inboxes: [] });
    },
  );

  it("401 without a key, 403 without conversation.view, 404 for an organization the caller is not in", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    await conversationOf(owner);
    const stranger = await seedMember(owner, ["chatbot.view"]);
    await expectError(await call("GET", `/api/v1${path(owner.organizationId)}`), 401);
    await expectError(await stranger.fetch("GET", path(owner.organizationId)), 403);
    await expectError(await other.fetch("GET", path(owner.organizationId)), 404);
    await expectError(await owner.fetch("GET", path(NO_SUCH_ID)), 404);
    await expectError(await owner.fetch("GET", path("nope")), 404);
    // Their own organization's counts, not the other's.
    expect(await (await other.fetch("GET", path(other.organizationId))).json()).toEqual({ count: 0, inboxes: [] });
  });
});

describe("the clock of business hours (CLOCK_OFFSET_MS)", () => {
  it("moves the time business hours are read at in development and test; refused (reported) elsewhere", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, { handoff: { outsideHoursMessage: "We are closed." } });
    // Open one hour, two days from now (UTC): closed now; the offset puts the clock in that hour.
    const opening = new Date(Date.now() + 2 * 86_400_000);
    opening.setUTCHours(10, 0, 0, 0);
    const hours: BusinessHours = {
      timeZone: "UTC",
      weekly: { [WEEKDAYS[opening.getUTCDay()]]: [["10:00", "11:00"]] },
      holidays: [],
    };
    expect((await owner.fetch("PATCH", `/inboxes/${bot.defaultInbox!.id}/`, { businessHours: hours })).status).toBe(
      200,
    );
    const offset = String(opening.getTime() + 30 * 60_000 - Date.now());
    const ask = async (settings: Record<string, string>) =>
      (
        await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
          await owner.fetch(
            "POST",
            `/chatbots/${bot.id}/completions/`,
            { message: { content: "I need to talk to a person" } },
            { settings },
          ),
        )
      ).content;
    expect(await ask({})).toBe("We are closed.");
    expect(await ask({ ENVIRONMENT: "test", CLOCK_OFFSET_MS: offset })).not.toBe("We are closed.");
    expect(await ask({ ENVIRONMENT: "development", CLOCK_OFFSET_MS: offset })).not.toBe("We are closed.");
    expect(await ask({ CLOCK_OFFSET_MS: offset })).toBe("We are closed.");
    expect(await ask({ ENVIRONMENT: "production", CLOCK_OFFSET_MS: offset })).toBe("We are closed.");

    const health = async (settings: Record<string, string>) =>
      JSON.stringify(await (await call("GET", "/health", undefined, {}, settings)).json());
    expect(await health({ CLOCK_OFFSET_MS: offset })).toContain("CLOCK_OFFSET_MS");
    expect(await health({ ENVIRONMENT: "test", CLOCK_OFFSET_MS: offset })).not.toContain("CLOCK_OFFSET_MS");
    expect(await health({ ENVIRONMENT: "test", CLOCK_OFFSET_MS: "soon" })).toContain("CLOCK_OFFSET_MS");
  });
});
