import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import {
  NO_SUCH_ID,
  PREFIXES,
  call,
  expectError,
  seedMember,
  seedOwner,
  unique,
  type Actor,
  waitFor,
} from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createChatbot } from "../../fixtures/chatbots";
import { HOOK_URL, at, createWebhook, insertDelivery, seedConversation, webhooksPath } from "./fixtures";
import { bodyOf } from "../../support/api";
import { receivedAt } from "../../support/received";

const recordsPath = (inboxId: string, webhookId: string, recordId?: string) =>
  `${webhooksPath(inboxId, webhookId)}records/${recordId ? `${recordId}/` : ""}`;

/** A webhook with four records over three days, and a second webhook with one. */
async function seedRecords(owner: Actor) {
  const {
    bot,
    inboxId,
    messageIds: [m0, m1, m2, m3],
  } = await seedConversation(owner, 2);
  const hook = await createWebhook(owner, inboxId, { name: "Main" });
  const other = await createWebhook(owner, inboxId, { name: "Other" });
  const base = { webhookId: hook.id, inboxId, chatbotId: bot.id };
  const r0 = await insertDelivery(owner, {
    ...base,
    messageId: m0,
    event: "incoming",
    status: "success",
    responseStatus: 200,
    error: null,
    createdAt: at("2026-01-10"),
  });
  const r1 = await insertDelivery(owner, {
    ...base,
    messageId: m1,
    status: "failure",
    createdAt: at("2026-01-11", "23:59"),
  });
  const r2 = await insertDelivery(owner, {
    ...base,
    messageId: m2,
    event: "incoming",
    status: "pending",
    attempts: 0,
    responseStatus: null,
    deliveredAt: null,
    createdAt: at("2026-01-12", "00:00"),
  });
  const r3 = await insertDelivery(owner, {
    ...base,
    messageId: m3,
    status: "failure",
    createdAt: at("2026-01-12", "18:00"),
  });
  const elsewhere = await insertDelivery(owner, {
    ...base,
    webhookId: other.id,
    messageId: m0,
    status: "failure",
    createdAt: at("2026-01-12"),
  });
  return { bot, inboxId, hook, other, messages: [m0, m1, m2, m3], records: [r0, r1, r2, r3], elsewhere };
}

describe("GET /inboxes/{inboxId}/webhooks/{webhookId}/records/", () => {
  it.each(PREFIXES)("lists the webhook's records newest first, with filters (%s)", async (prefix) => {
    const owner = await seedOwner();
    const {
      bot,
      inboxId,
      hook,
      records: [r0, r1, r2, r3],
      messages,
    } = await seedRecords(owner);
    const list = async (query = "") => {
      const res = await owner.fetch("GET", `${recordsPath(inboxId, hook.id)}${query}`, undefined, { prefix });
      expect(res.status, await res.clone().text()).toBe(200);
      return await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/records/">(res);
    };
    const all = await list();
    expect(all.count).toBe(4);
    expect(all.results.map((r) => r.id)).toEqual([r3, r2, r1, r0]);
    expect(all.results[3]).toEqual({
      id: r0,
      webhook: { id: hook.id, name: "Main" },
      chatbot: { id: bot.id, name: bot.name },
      message: messages[0],
      event: "incoming",
      status: "success",
      attempt: 1,
      eventId: messages[0],
      scheduledAt: String(at("2026-01-10")),
      attempts: 1,
      url: HOOK_URL,
      requestBody: '{"id":"x"}',
      response: '{"message":"receiver failed"}',
      statusCode: 200,
      responseStatus: 200,
      responseBody: '{"message":"receiver failed"}',
      durationMs: 12,
      error: null,
      createdAt: String(at("2026-01-10")),
      deliveredAt: expect.stringMatching(/^\d+$/),
    });
    expect(all.results[1]).toMatchObject({
      id: r2,
      status: "pending",
      attempts: 0,
      responseStatus: null,
      deliveredAt: null,
    });

    const ids = async (query: string) => (await list(query)).results.map((r) => r.id);
    expect(await ids("?status=failure")).toEqual([r3, r1]);
    expect(await ids("?status=failed")).toEqual([r3, r1]);
    expect(await ids("?status=pending")).toEqual([r2]);
    expect(await ids("?status=sending")).toEqual([]);
    expect(await ids("?startDate=2026-01-11")).toEqual([r3, r2, r1]);
    expect(await ids("?endDate=2026-01-11")).toEqual([r1, r0]);
    expect(await ids("?start_date=2026-01-12&end_date=2026-01-12")).toEqual([r3, r2]);
    expect(await ids("?status=failed&start_date=2026-01-12")).toEqual([r3]);
    expect(await ids(`?eventId=${messages[1]}`)).toEqual([r1]);
    expect(await ids(`?event_id=${messages[2]}&status=pending`)).toEqual([r2]);
    const paged = await list("?pageSize=3&page=2");
    expect(paged).toMatchObject({ count: 4, next: null });
    expect(paged.results.map((r) => r.id)).toEqual([r0]);
  });

  it("400 naming the filter", async () => {
    const owner = await seedOwner();
    const { inboxId, hook } = await seedRecords(owner);
    const cases: [string, string][] = [
      ["?status=lost", "status"],
      ["?startDate=2026-13-01", "startDate"],
      ["?endDate=yesterday", "endDate"],
      ["?startDate=2026-01-12&endDate=2026-01-11", "endDate"],
      ["?eventId=not-a-message", "eventId"],
    ];
    for (const [query, field] of cases) {
      const err = await expectError(
        await owner.fetch("GET", `${recordsPath(inboxId, hook.id)}${query}`),
        400,
        "invalid",
      );
      expect(Object.keys(err.errors!), query).toEqual([field]);
    }
    // A day that is not one says what one looks like.
    const err = await expectError(
      await owner.fetch("GET", `${recordsPath(inboxId, hook.id)}?endDate=yesterday`),
      400,
      "invalid",
    );
    expect(err.errors!.endDate).toEqual(["A day as YYYY-MM-DD (UTC)"]);
  });

  it("403 without webhook.manage", async () => {
    const owner = await seedOwner();
    const { inboxId, hook } = await seedRecords(owner);
    const member = await seedMember(owner, ["inbox.manage", "conversation.view", "chatbot.view"]);
    await expectDenied(await member.fetch("GET", recordsPath(inboxId, hook.id)));
    const manager = await seedMember(owner, ["webhook.manage"]);
    expect(
      (
        await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/records/">(
          await manager.fetch("GET", recordsPath(inboxId, hook.id)),
        )
      ).count,
    ).toBe(4);
  });

  it("404 for another organization's webhook or inbox", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const theirs = await seedRecords(stranger);
    const mine = await seedConversation(owner, 1);
    await expectNotFound(await owner.fetch("GET", recordsPath(theirs.inboxId, theirs.hook.id)));
    await expectNotFound(await owner.fetch("GET", recordsPath(mine.inboxId, theirs.hook.id)));
    await expectNotFound(await owner.fetch("GET", recordsPath(mine.inboxId, NO_SUCH_ID)));
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", `/api/v1${recordsPath(NO_SUCH_ID, NO_SUCH_ID)}`), 401, "not_authenticated");
  });
});

describe("webhook records of a real delivery", () => {
  it(
    "carries the product's fields: url, requestBody, response, statusCode, createdAt, chatbot, attempt, eventId " +
      "(CONTRACT section 8)",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const inboxId = bot.defaultInbox!.id;
      const path = `/ok/${unique("records")}`;
      const hook = await createWebhook(owner, inboxId, { url: `${env.TEST_RECEIVER_URL}${path}` });
      const before = Date.now();
      const reply = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        message: { content: "Opening hours?" },
      });
      expect(reply.status, await reply.clone().text()).toBe(200);
      const { message } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(reply);

      const list = async () =>
        bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/records/">(
          await owner.fetch("GET", recordsPath(inboxId, hook.id)),
        );
      const page = await waitFor(list, (p) => p.results[0]?.status === "success");
      expect(page.count).toBe(1);
      const [record] = page.results;
      const received = await receivedAt(path);
      expect(received).toHaveLength(1);
      expect(record).toMatchObject({
        message: message!.id,
        attempt: 1,
        eventId: message!.id,
        url: `${env.TEST_RECEIVER_URL}${path}`,
        requestBody: received[0].body,
        response: '{"message":"ok"}',
        statusCode: 200,
        chatbot: { id: bot.id, name: bot.name },
        // The older names stay, with the same values.
        responseBody: '{"message":"ok"}',
        responseStatus: 200,
      });
      expect(JSON.parse(record.requestBody!)).toMatchObject({ id: message!.id, type: "outgoing" });
      expect(Number(record.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Number(record.createdAt)).toBeLessThanOrEqual(Date.now());

      // The same record through the assistant's records, and through the one-record endpoints.
      const one = await owner.fetch("GET", recordsPath(inboxId, hook.id, record.id));
      expect(await one.json()).toEqual(record);
      const viaBot = await owner.fetch("GET", `/chatbots/${bot.id}/webhook-records/${record.id}/`);
      expect(viaBot.status).toBe(200);
      expect(await viaBot.json()).toEqual(record);
    },
  );

  it("chatbot is null when the delivery names no assistant", async () => {
    const owner = await seedOwner();
    const { inboxId, messageIds } = await seedConversation(owner, 1);
    const hook = await createWebhook(owner, inboxId);
    const id = await insertDelivery(owner, { webhookId: hook.id, inboxId, chatbotId: null, messageId: messageIds[0] });
    const res = await owner.fetch("GET", recordsPath(inboxId, hook.id, id));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id,
      chatbot: null,
      statusCode: 500,
      response: '{"message":"receiver failed"}',
    });
  });
});

describe("GET /inboxes/{inboxId}/webhooks/{webhookId}/records/{recordId}/", () => {
  it.each(PREFIXES)("returns one record (%s)", async (prefix) => {
    const owner = await seedOwner();
    const { inboxId, hook, records } = await seedRecords(owner);
    const list = await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/records/">(
      await owner.fetch("GET", recordsPath(inboxId, hook.id)),
    );
    const res = await owner.fetch("GET", recordsPath(inboxId, hook.id, records[1]), undefined, { prefix });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(list.results.find((r) => r.id === records[1]));
  });

  it("404 for a record of another webhook, of another organization, unknown or malformed", async () => {
    const owner = await seedOwner();
    const { inboxId, hook, elsewhere } = await seedRecords(owner);
    const theirs = await seedRecords(await seedOwner());
    await expectNotFound(await owner.fetch("GET", recordsPath(inboxId, hook.id, elsewhere)));
    await expectNotFound(await owner.fetch("GET", recordsPath(inboxId, hook.id, theirs.records[0])));
    await expectNotFound(await owner.fetch("GET", recordsPath(theirs.inboxId, theirs.hook.id, theirs.records[0])));
    await expectNotFound(await owner.fetch("GET", recordsPath(inboxId, hook.id, NO_SUCH_ID)));
    await expectNotFound(await owner.fetch("GET", recordsPath(inboxId, hook.id, "42")));
  });

  it("403 without webhook.manage", async () => {
    const owner = await seedOwner();
    const { inboxId, hook, records } = await seedRecords(owner);
    await expectDenied(
      await (await seedMember(owner, ["inbox.manage"])).fetch("GET", recordsPath(inboxId, hook.id, records[0])),
    );
  });

  it("401 without a key", async () => {
    await expectError(
      await call("GET", `/api${recordsPath(NO_SUCH_ID, NO_SUCH_ID, NO_SUCH_ID)}`),
      401,
      "not_authenticated",
    );
  });
});
