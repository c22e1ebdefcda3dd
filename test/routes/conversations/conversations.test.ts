import { describe, expect, it } from "vitest";
import { count } from "drizzle-orm";
import { conversations } from "../../../src/db/schema";
import { NO_SUCH_ID, PREFIXES, call, data, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { bodyOf } from "../../support/api";

async function webChatOf(owner: Actor) {
  const bot = await createChatbot(owner);
  const inbox = await bodyOf<"POST /inboxes/">(
    await owner.fetch("POST", "/inboxes/", { name: "Website", channelType: "web", chatbot: { id: bot.id } }),
  );
  return { bot, inboxId: inbox.id, webChatId: inbox.channel!.id };
}

describe("conversations", () => {
  it.each(PREFIXES)("POST creates a conversation from a web chat; GET returns it (%s)", async (prefix) => {
    const owner = await seedOwner();
    const { bot, inboxId, webChatId } = await webChatOf(owner);
    const res = await owner.fetch("POST", "/conversations/", { web_chat: webChatId }, { prefix });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = await bodyOf<"POST /conversations/">(res);
    expect(created).toMatchObject({
      inbox: { id: inboxId, channelType: "web" },
      chatbot: { id: bot.id },
      contact: null,
      status: "open",
      progressStatus: "open",
      autoReplyEnabled: true,
      type: "individual",
      lastMessage: null,
    });
    expect(await (await owner.fetch("GET", `/conversations/${created.id}/`, undefined, { prefix })).json()).toEqual(
      created,
    );
    // The web chat's assistant answers in it.
    const reply = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      conversation: created.id,
      message: { content: "hello" },
    });
    expect((await bodyOf<"POST /chatbots/{chatbotId}/completions/">(reply)).content).toBe(
      "Hello! How can I help you today?",
    );
  });

  it("the first incoming message names it (80 characters), the last shows (500), never cut mid-character", async () => {
    const owner = await seedOwner();
    const { webChatId } = await webChatOf(owner);
    const created = await bodyOf<"POST /conversations/">(
      await owner.fetch("POST", "/conversations/", { webChat: webChatId }),
    );
    // The assistant kept silent, so the last message is the visitor's.
    const silent = await owner.fetch("PATCH", `/conversations/${created.id}/update-auto-reply/`, {
      autoReplyEnabled: false,
    });
    expect(silent.status, await silent.clone().text()).toBe(200);
    // U+1F600 is two UTF-16 units: at 79 it would be cut between them.
    const first = `${"a".repeat(79)}😀 and more`;
    const last = `${"b".repeat(499)}😀😀`;
    for (const content of [first, last]) {
      const res = await owner.fetch("POST", "/messages/", { conversation: created.id, content });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const read = await bodyOf<"GET /conversations/{id}/">(await owner.fetch("GET", `/conversations/${created.id}/`));
    expect(read.title).toBe("a".repeat(79));
    expect(read.lastMessage).toBe("b".repeat(499));
    const whole = `${"c".repeat(78)}😀`;
    const named = await bodyOf<"POST /conversations/">(
      await owner.fetch("POST", "/conversations/", { webChat: webChatId }),
    );
    await owner.fetch("POST", "/messages/", { conversation: named.id, content: whole });
    const title = (await bodyOf<"GET /conversations/{id}/">(await owner.fetch("GET", `/conversations/${named.id}/`)))
      .title;
    expect(title).toBe(whole);
  });

  it("400 for a web chat of another organization or a bad body, nothing written", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const { webChatId } = await webChatOf(other);
    const stored = async () =>
      (await (await data(owner.organizationId)).select({ n: count() }).from(conversations))[0].n;
    const before = await stored();
    expect(
      (await expectError(await owner.fetch("POST", "/conversations/", { webChat: webChatId }), 400)).errors,
    ).toHaveProperty("webChat");
    await expectError(await owner.fetch("POST", "/conversations/", {}), 400);
    await expectError(await owner.fetch("POST", "/conversations/", { webChat: "x" }), 400);
    expect(await stored()).toBe(before);
  });

  it("lists an inbox's conversations newest first, with keyword search and a cursor", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const ids: string[] = [];
    for (const text of ["refund for order 1", "delivery time", "another refund"]) {
      const r = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: text } }),
      );
      ids.push(r.conversationId);
    }
    const inbox = bot.defaultInbox!.id;
    const all = await bodyOf<"GET /conversations/">(await owner.fetch("GET", `/conversations/?inbox=${inbox}`));
    expect(all.results.map((c) => c.id)).toEqual([...ids].reverse());
    const refunds = await bodyOf<"GET /conversations/">(
      await owner.fetch("GET", `/conversations/?inbox=${inbox}&keyword=REFUND`),
    );
    expect(refunds.results.map((c) => c.id)).toEqual([ids[2], ids[0]]);
    const page = await bodyOf<"GET /conversations/">(
      await owner.fetch("GET", `/conversations/?inbox=${inbox}&pageSize=2`),
    );
    expect(page.results.map((c) => c.id)).toEqual([ids[2], ids[1]]);
    const rest = await bodyOf<"GET /conversations/">(
      await call("GET", page.next!.replace("http://localhost", ""), undefined, {
        Authorization: `Api-Key ${owner.key}`,
      }),
    );
    expect(rest.results.map((c) => c.id)).toEqual([ids[0]]);
    await expectError(await owner.fetch("GET", "/conversations/?status=closed"), 400, "invalid");
    await expectError(await owner.fetch("GET", "/conversations/?startDate=yesterday"), 400, "invalid");
    // A day the calendar does not have is refused, not read as the next month's (December 1st).
    await expectError(await owner.fetch("GET", "/conversations/?endDate=2026-11-31"), 400, "invalid");
  });

  it("filters the organization's conversations by assistant, inbox, status, progress, contact and date", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const [a, b] = [await createChatbot(owner), await createChatbot(owner)];
    await createChatbot(other).then((bot) =>
      other.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "foreign" } }),
    );
    const contact = await bodyOf<"POST /contacts/">(
      await owner.fetch("POST", "/contacts/", { name: "Ada", inboxes: [{ id: a.defaultInbox!.id }] }),
    );
    const start = async (bot: { id: string }, body: Record<string, unknown> = {}) =>
      (
        await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
          await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "hi", ...body } }),
        )
      ).conversationId;
    const [first, second, third] = [await start(a, { sender: contact.id }), await start(a), await start(b)];
    await owner.fetch("POST", `/conversations/${second}/take-over/`);
    const ids = async (query: string) =>
      (await bodyOf<"GET /conversations/">(await owner.fetch("GET", `/conversations/${query}`))).results.map(
        (c) => c.id,
      );
    expect(await ids("")).toEqual([third, second, first]);
    expect(await ids(`?chatbot=${a.id}`)).toEqual([second, first]);
    expect(await ids(`?inbox=${b.defaultInbox!.id}`)).toEqual([third]);
    expect(await ids(`?contact=${contact.id}`)).toEqual([first]);
    expect(await ids("?progress_status=human_serving")).toEqual([second]);
    expect(await ids("?status=open&progressStatus=ai_processing")).toEqual([third, first]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await ids(`?startDate=${today}&endDate=${today}`)).toEqual([third, second, first]);
    expect(await ids("?endDate=2000-01-01")).toEqual([]);
    // Days of a timezone, as the console sends the browser's: UTC+14 and UTC-11 are a day apart at any moment, so at
    // least one of them names another day than UTC for these conversations.
    const created = Number(
      (await bodyOf<"GET /conversations/{id}/">(await owner.fetch("GET", `/conversations/${first}/`))).createdAt,
    );
    const dayIn = (timeZone: string, ms: number) => new Date(ms).toLocaleDateString("en-CA", { timeZone });
    let differed = 0;
    for (const zone of ["Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
      const [day, next] = [dayIn(zone, created), dayIn(zone, created + 86_400_000)];
      const inZone = `&timezone=${encodeURIComponent(zone)}`;
      expect(await ids(`?startDate=${day}&endDate=${day}${inZone}`), zone).toContain(first);
      expect(await ids(`?startDate=${next}${inZone}`), zone).toEqual([]);
      if (day !== today) {
        differed++;
        expect(await ids(`?startDate=${day}&endDate=${day}`), `${day} in UTC`).not.toContain(first);
      }
    }
    expect(differed).toBeGreaterThan(0);
    const refused = await expectError(
      await owner.fetch("GET", "/conversations/?startDate=2026-01-01&timezone=Mars/Base"),
      400,
    );
    expect(refused.errors?.timezone).toBeTruthy();
  });

  it("a conversation with a personal assistant the organization hosts names the assistant", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["chatbot.manage", "conversation.manage", "conversation.view"]);
    const personal = await createChatbot(member, { organization: null, name: "Own desk" });
    const reply = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await member.fetch("POST", `/chatbots/${personal.id}/completions/`, { message: { content: "hello" } }),
    );
    const read = await bodyOf<"GET /conversations/{id}/">(
      await member.fetch("GET", `/conversations/${reply.conversationId}/`),
    );
    // Read null before: only the organization's own assistants were named.
    expect(read.chatbot).toEqual({ id: personal.id, name: "Own desk" });
    const listed = await bodyOf<"GET /conversations/">(
      await owner.fetch("GET", `/conversations/?chatbot=${personal.id}`),
    );
    expect(listed.results.map((c) => c.chatbot)).toEqual([{ id: personal.id, name: "Own desk" }]);
  });

  it("401, 403 and 404 across organizations", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const { inboxId, webChatId } = await webChatOf(owner);
    const created = await bodyOf<"POST /conversations/">(
      await owner.fetch("POST", "/conversations/", { webChat: webChatId }),
    );
    await expectError(await call("GET", `/api/v1/conversations/${created.id}/`), 401);
    await expectError(await other.fetch("GET", `/conversations/${created.id}/`), 404);
    await expectError(await other.fetch("GET", `/conversations/?inbox=${inboxId}`), 404);
    await expectError(await owner.fetch("GET", `/conversations/${NO_SUCH_ID}/`), 404);
    const nobody = await seedMember(owner);
    await expectError(await nobody.fetch("GET", `/conversations/${created.id}/`), 403);
    await expectError(await nobody.fetch("POST", "/conversations/", { webChat: webChatId }), 403);
    await expectError(await call("GET", `/api/v1/conversations/?inbox=${inboxId}`), 401);
    await expectError(await call("POST", "/api/v1/conversations/", { webChat: webChatId }), 401);
    await expectError(await nobody.fetch("GET", `/conversations/?inbox=${inboxId}`), 403);
    const viewer = await seedMember(owner, ["conversation.view"]);
    expect((await viewer.fetch("GET", `/conversations/${created.id}/`)).status).toBe(200);
    expect((await viewer.fetch("GET", `/conversations/?inbox=${inboxId}`)).status).toBe(200);
  });
});
