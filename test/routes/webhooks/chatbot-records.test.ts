import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { at, createWebhook, insertDelivery, seedConversation } from "./fixtures";
import { bodyOf } from "../../support/api";

const botRecordsPath = (chatbotId: string, recordId?: string) =>
  `/chatbots/${chatbotId}/webhook-records/${recordId ? `${recordId}/` : ""}`;

/** An assistant whose default inbox has two webhooks with records, and a second assistant with one of its own. */
async function seedBotRecords(actor: Actor) {
  const {
    bot,
    inboxId,
    messageIds: [m0, m1, m2],
  } = await seedConversation(actor, 2);
  const hook = await createWebhook(actor, inboxId, { name: "Main" });
  const other = await createWebhook(actor, inboxId, { name: "Other" });
  const base = { inboxId, chatbotId: bot.id };
  const r0 = await insertDelivery(actor, {
    ...base,
    webhookId: hook.id,
    messageId: m0,
    status: "success",
    createdAt: at("2026-02-01"),
  });
  const r1 = await insertDelivery(actor, {
    ...base,
    webhookId: other.id,
    messageId: m0,
    status: "failure",
    createdAt: at("2026-02-02"),
  });
  const r2 = await insertDelivery(actor, {
    ...base,
    webhookId: hook.id,
    messageId: m1,
    status: "failure",
    createdAt: at("2026-02-03"),
  });
  const r3 = await insertDelivery(actor, {
    ...base,
    webhookId: other.id,
    messageId: m2,
    status: "pending",
    createdAt: at("2026-02-03", "13:00"),
  });
  const { record: foreign } = await botWithOneRecord(actor);
  return { bot, hook, other, records: [r0, r1, r2, r3], foreign };
}

/** A new assistant of `actor`'s with a one-turn conversation, a webhook on its inbox and one record of it. */
async function botWithOneRecord(actor: Actor) {
  const { bot, inboxId, messageIds } = await seedConversation(actor, 1);
  const hook = await createWebhook(actor, inboxId);
  const record = await insertDelivery(actor, {
    inboxId,
    chatbotId: bot.id,
    webhookId: hook.id,
    messageId: messageIds[0],
  });
  return { bot, record };
}

describe("GET /chatbots/{chatbotPk}/webhook-records/", () => {
  it.each(PREFIXES)(
    "lists the records of the assistant's messages across webhooks, newest first, with filters (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const {
        bot,
        hook,
        other,
        records: [r0, r1, r2, r3],
      } = await seedBotRecords(owner);
      const list = async (query = "") => {
        const res = await owner.fetch("GET", `${botRecordsPath(bot.id)}${query}`, undefined, { prefix });
        expect(res.status, await res.clone().text()).toBe(200);
        return await bodyOf<"GET /chatbots/{chatbotPk}/webhook-records/">(res);
      };
      const all = await list();
      expect(all.count).toBe(4);
      expect(all.results.map((r) => r.id)).toEqual([r3, r2, r1, r0]);
      expect(all.results.map((r) => r.webhook)).toEqual([
        { id: other.id, name: "Other" },
        { id: hook.id, name: "Main" },
        { id: other.id, name: "Other" },
        { id: hook.id, name: "Main" },
      ]);
      const ids = async (query: string) => (await list(query)).results.map((r) => r.id);
      expect(await ids(`?webhook=${hook.id}`)).toEqual([r2, r0]);
      expect(await ids("?status=failed")).toEqual([r2, r1]);
      expect(await ids(`?status=failure&webhook=${other.id}`)).toEqual([r1]);
      expect(await ids("?startDate=2026-02-02&endDate=2026-02-02")).toEqual([r1]);
      expect(await ids("?start_date=2026-02-03")).toEqual([r3, r2]);
      expect(await ids(`?webhook=${NO_SUCH_ID}`)).toEqual([]);
    },
  );

  it("400 naming the filter", async () => {
    const owner = await seedOwner();
    const { bot } = await seedBotRecords(owner);
    const cases: [string, string][] = [
      ["?webhook=abc", "webhook"],
      ["?status=done", "status"],
      ["?startDate=01-02-2026", "startDate"],
      ["?startDate=2026-02-03&endDate=2026-02-01", "endDate"],
    ];
    for (const [query, field] of cases) {
      const err = await expectError(await owner.fetch("GET", `${botRecordsPath(bot.id)}${query}`), 400, "invalid");
      expect(Object.keys(err.errors!), query).toEqual([field]);
    }
  });

  it("members need webhook.manage (403) and must see the assistant (404); their own assistant works", async () => {
    const owner = await seedOwner();
    const { bot } = await seedBotRecords(owner);
    await expectDenied(
      await (await seedMember(owner, ["chatbot.view", "inbox.manage"])).fetch("GET", botRecordsPath(bot.id)),
    );
    // webhook.manage, but the owner's assistant is not given to any of the member's groups.
    const manager = await seedMember(owner, ["webhook.manage", "chatbot.manage", "conversation.manage"]);
    await expectNotFound(await manager.fetch("GET", botRecordsPath(bot.id)));
    // Their own assistant (the Free plan allows three per organization: two are the owner's).
    const own = await botWithOneRecord(manager);
    const page = await bodyOf<"GET /chatbots/{chatbotPk}/webhook-records/">(
      await manager.fetch("GET", botRecordsPath(own.bot.id)),
    );
    expect(page.results.map((r) => r.id)).toEqual([own.record]);
  });

  it("404 for another organization's assistant, an unknown or a malformed id", async () => {
    const owner = await seedOwner();
    const theirs = await seedBotRecords(await seedOwner());
    await expectNotFound(await owner.fetch("GET", botRecordsPath(theirs.bot.id)));
    await expectNotFound(await owner.fetch("GET", botRecordsPath(NO_SUCH_ID)));
    await expectNotFound(await owner.fetch("GET", botRecordsPath("bot")));
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", `/api${botRecordsPath(NO_SUCH_ID)}`), 401, "not_authenticated");
  });
});

describe("GET /chatbots/{chatbotPk}/webhook-records/{recordId}/", () => {
  it.each(PREFIXES)("returns one record of the assistant (%s)", async (prefix) => {
    const owner = await seedOwner();
    const { bot, other, records } = await seedBotRecords(owner);
    const res = await owner.fetch("GET", botRecordsPath(bot.id, records[1]), undefined, { prefix });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({
      id: records[1],
      webhook: { id: other.id, name: "Other" },
      status: "failure",
    });
  });

  it("404 for another assistant's record, another organization's, an unknown or a malformed id", async () => {
    const owner = await seedOwner();
    const { bot, foreign } = await seedBotRecords(owner);
    const theirs = await seedBotRecords(await seedOwner());
    await expectNotFound(await owner.fetch("GET", botRecordsPath(bot.id, foreign)));
    await expectNotFound(await owner.fetch("GET", botRecordsPath(bot.id, theirs.records[0])));
    await expectNotFound(await owner.fetch("GET", botRecordsPath(theirs.bot.id, theirs.records[0])));
    await expectNotFound(await owner.fetch("GET", botRecordsPath(bot.id, NO_SUCH_ID)));
    await expectNotFound(await owner.fetch("GET", botRecordsPath(bot.id, "x")));
  });

  it("403 without webhook.manage", async () => {
    const owner = await seedOwner();
    const { bot, records } = await seedBotRecords(owner);
    await expectDenied(
      await (await seedMember(owner, ["chatbot.view"])).fetch("GET", botRecordsPath(bot.id, records[0])),
    );
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", `/api/v1${botRecordsPath(NO_SUCH_ID, NO_SUCH_ID)}`), 401, "not_authenticated");
  });
});
