import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { organizations } from "../../../src/db/schema";
import { assistantRefusal } from "../../../src/services/assistant-refusal";
import { bindingsWith, countInParts, db, expectError, seedOwner, type Actor, type Settings } from "../../harness";
import { sent, telegramInbox, textUpdate, updateThroughConsumer } from "../../channels/telegram-support";
import { createChatbot } from "../../fixtures/chatbots";
import { bodyOf } from "../../support/api";
import { readEvents } from "../../support/sse";
import { client, pub, seedWebChat, startSession } from "../widget/fixtures";

/** An operator's one plan, every organization's (its stored plan id is not configured); it limits nothing. */
const BASIC: Settings = {
  PLANS: JSON.stringify({ basic: { planName: "Basic" } }),
  DEFAULT_PLAN: "basic",
};
const DAY = 86_400_000;

const completions = (chatbotId: string) => `/chatbots/${chatbotId}/completions/`;

/** Staff's `planExpiredAt` for the organization (null: renewed without expiry). */
const expirePlan = (owner: Actor, expiredAt: number | null) =>
  db().update(organizations).set({ planExpiredAt: expiredAt }).where(eq(organizations.id, owner.organizationId));

const lapsedDetail = (expiredAt: number) =>
  `The organization's plan has expired (the Basic plan, on ${new Date(expiredAt).toISOString().slice(0, 10)} UTC)`;

describe("a lapsed plan (planExpiredAt in the past): the assistants stop answering", () => {
  it("a completion is 403 naming the expiry, storing nothing; before the expiry, or renewed, it answers", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const conversations = () =>
      countInParts(owner.organizationId, "conversations", "organization_id = ?1", owner.organizationId);
    const ask = (isStreaming = false) =>
      owner.fetch(
        "POST",
        completions(bot.id),
        { message: { content: "Where is my parcel today?" }, isStreaming },
        { settings: BASIC },
      );
    await expirePlan(owner, Date.now() + DAY);
    const answered = await ask();
    expect(answered.status, await answered.clone().text()).toBe(200);
    const before = await conversations();
    const expiredAt = Date.now() - 1000;
    await expirePlan(owner, expiredAt);
    for (const isStreaming of [false, true]) {
      const err = await expectError(await ask(isStreaming), 403, "permission_denied");
      expect(err.detail).toContain(lapsedDetail(expiredAt));
    }
    expect(await conversations()).toBe(before);
    // The same organization on a deployment without plans: no plan lapses.
    const unplanned = await owner.fetch("POST", completions(bot.id), { message: { content: "And tomorrow?" } });
    expect(unplanned.status, await unplanned.clone().text()).toBe(200);
    // Renewed by staff: it answers again at once.
    await expirePlan(owner, null);
    const renewed = await ask();
    expect(renewed.status, await renewed.clone().text()).toBe(200);
  });

  it("the expiry is read once and compared with the request's clock at each check", async () => {
    const owner = await seedOwner();
    const now = Date.now();
    await expirePlan(owner, now + DAY);
    const env = bindingsWith(BASIC);
    expect(await assistantRefusal(env, db(), owner.organizationId, now)).toBeUndefined();
    // A day on, with the organization's row remembered: refused from the expiry on, without reading it again.
    expect(await assistantRefusal(env, db(), owner.organizationId, now + DAY)).toMatchObject({
      status: 403,
      code: "permission_denied",
      detail: expect.stringContaining(lapsedDetail(now + DAY)),
    });
  });

  it("a visitor's widget message is stored and not answered; the stream's error names the stored message", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const visitor = client();
    const session = await startSession(chat.id, {}, visitor);
    const expiredAt = Date.now() - 1000;
    await expirePlan(owner, expiredAt);
    const refused = await readEvents(
      await visitor.post(pub(chat.id, "messages/"), { content: "Is anyone there?" }, session.token, {}, BASIC),
    );
    const error = refused.find((e) => e.event === "error");
    expect(error?.data).toMatchObject({ code: "permission_denied" });
    expect(String(error?.data?.detail)).toContain(lapsedDetail(expiredAt));
    expect(refused.some((e) => e.data?.done)).toBe(false);
    const conversationId = error!.data!.conversationId as string;
    const messages = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${conversationId}`),
    );
    // The visitor's message is kept (the team sees it), with no reply.
    expect(messages.results.map((m) => [m.id, m.type, m.content])).toEqual([
      [error!.data!.incomingId, "incoming", "Is anyone there?"],
    ]);
  });

  it("a message posted through the API is stored and not answered; a person in the team still replies", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const started = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), { message: { content: "Hello there" } }, { settings: BASIC }),
    );
    await expirePlan(owner, Date.now() - 1000);
    const posted = await owner.fetch(
      "POST",
      "/messages/",
      { conversation: started.conversationId, content: "Still there?" },
      { settings: BASIC },
    );
    expect(posted.status, await posted.clone().text()).toBe(201);
    const stored = await bodyOf<"POST /messages/">(posted);
    // A reply would be stored within moments: the conversation's last message stays the visitor's.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const list = async () =>
      (await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${started.conversationId}`)))
        .results;
    expect((await list()).map((m) => m.type)).toEqual(["incoming", "outgoing", "incoming"]);
    expect((await list())[0]?.id).toBe(stored.id);
    const human = await owner.fetch(
      "POST",
      "/messages/outgoing/",
      { conversation: started.conversationId, content: "Yes, I am here: your parcel left today." },
      { settings: BASIC },
    );
    expect(human.status, await human.clone().text()).toBe(201);
    expect((await list()).map((m) => [m.type, m.content])[0]).toEqual([
      "outgoing",
      "Yes, I am here: your parcel left today.",
    ]);
  });

  it("a channel's message is stored and not answered: nothing goes back to the platform", async () => {
    const { owner, token, inbox } = await telegramInbox();
    await expirePlan(owner, Date.now() - 1000);
    // The update as the platform sends it, its queue work handed to the consumer with the plan set.
    const work = await updateThroughConsumer(token, inbox.path, textUpdate("Is my parcel here yet?"), BASIC);
    expect(work).toHaveLength(1);
    const conversations = await bodyOf<"GET /conversations/">(
      await owner.fetch("GET", `/conversations/?inbox=${inbox.inboxId}`),
    );
    expect(conversations.results).toHaveLength(1);
    // A reply would be stored within moments, and sent to Telegram.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const messages = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${conversations.results[0].id}`),
    );
    expect(messages.results.map((m) => [m.type, m.content])).toEqual([["incoming", "Is my parcel here yet?"]]);
    expect(await sent(token, "sendMessage")).toEqual([]);
  });
});
