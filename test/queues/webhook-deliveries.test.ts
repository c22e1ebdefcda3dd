import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { eq, type SQL } from "drizzle-orm";
import worker from "../../src/index";
import { conversationData, db, fromEveryPart, seedOwner, type Actor, waitFor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { webhookDeliveries, webhooks } from "../../src/db/schema";
import { encryptSecret } from "../../src/lib/crypto";
import { uuidv7 } from "../../src/lib/ids";
import { runHousekeeping } from "../../src/services/housekeeping";
import { deliver } from "../../src/services/webhooks/delivery";
import { bodyOf } from "../support/api";
import { runQueue } from "../support/queues";
import { verifySignature } from "./webhook-fixtures";
import { receivedAt } from "../support/received";

const receiver = (path: string) => `${env.TEST_RECEIVER_URL}${path}`;

async function addWebhook(
  owner: Actor,
  inboxId: string,
  values: Partial<typeof webhooks.$inferInsert> & { secret?: string },
) {
  const id = uuidv7();
  const { secret, ...rest } = values;
  await db()
    .insert(webhooks)
    .values({
      id,
      organizationId: owner.organizationId,
      inboxId,
      name: "hook",
      direction: "outgoing",
      url: receiver(`/ok/${id}`),
      ...rest,
      secretTokenSealed: secret ? await encryptSecret(secret, env.ENCRYPTION_KEY) : null,
    });
  return id;
}

/**
 * A pending delivery record of a reply written straight to D1, as if the queue had never been told of it: in the part
 * of the organization's data plane its conversation names, naming that conversation or not (an older worker's).
 */
async function pendingDelivery(
  owner: Actor,
  bot: { id: string; defaultInbox: { id: string } | null },
  webhookId: string,
  reply: { conversationId: string; message?: { id: string } | null },
  { createdAt = Date.now(), named = false } = {},
) {
  const id = uuidv7();
  await (await conversationData(owner.organizationId, reply.conversationId)).insert(webhookDeliveries).values({
    id,
    organizationId: owner.organizationId,
    webhookId,
    inboxId: bot.defaultInbox!.id,
    chatbotId: bot.id,
    messageId: reply.message!.id,
    conversationId: named ? reply.conversationId : null,
    event: "outgoing",
    createdAt,
  });
  return id;
}

async function talk(owner: Actor, botId: string, content: string, conversation?: string) {
  const res = await owner.fetch("POST", `/chatbots/${botId}/completions/`, { conversation, message: { content } });
  expect(res.status).toBe(200);
  return await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
}

/** The delivery records `where` selects, from whichever part of the organization's data plane holds them. */
const deliveries = (owner: Actor, where: SQL | undefined) =>
  fromEveryPart(owner.organizationId, (part) => part.select().from(webhookDeliveries).where(where));

/** A new owner's assistant with one webhook, and `content` sent to it: the reply and its delivery, once sent. */
async function deliveredOnce(content: string) {
  const owner = await seedOwner();
  const bot = await createChatbot(owner);
  const hook = await addWebhook(owner, bot.defaultInbox!.id, {});
  const reply = await talk(owner, bot.id, content);
  const [record] = await waitFor(
    () => deliveries(owner, eq(webhookDeliveries.webhookId, hook)),
    (r) => r[0]?.status === "success",
  );
  return { owner, bot, hook, reply, record };
}

/** The message's delivery attempt, once it has failed. */
async function failedAttempt(owner: Actor, messageId: string) {
  const [attempt] = await waitFor(
    async () => deliveries(owner, eq(webhookDeliveries.messageId, messageId)),
    (r) => r[0]?.status === "failure",
  );
  return attempt;
}

describe("webhook deliveries through the queue, to a real receiver", () => {
  it("sends each preset with its headers and a verifiable signature; a disabled webhook sends nothing", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    const standard = await addWebhook(owner, inbox, { secret: "s3cret-token", headers: { "X-Tenant": "acme" } });
    const legacy = await addWebhook(owner, inbox, { direction: "incoming", templatePreset: "legacy", method: "PUT" });
    const genesys = await addWebhook(owner, inbox, { templatePreset: "genesys_cloud" });
    const custom = await addWebhook(owner, inbox, {
      templatePreset: "custom",
      customTemplate:
        '{"text": {{ message.content | tojson }}, "who": {{ sender.name | tojson }}, "kind": {{ sender_type | ' +
        'tojson }}, "inbox": {{ inbox.channel_type | tojson }}}',
    });
    const disabled = await addWebhook(owner, inbox, { isEnabled: false });

    const reply = await talk(owner, bot.id, 'Say "hi"\nplease');
    const [hit] = await waitFor(
      () => receivedAt(`/ok/${standard}`),
      (r) => r.length > 0,
    );
    expect(hit.method).toBe("POST");
    expect(hit.headers["content-type"]).toBe("application/json");
    expect(hit.headers["x-tenant"]).toBe("acme");
    expect(hit.headers["x-webhook-secret"]).toBe("s3cret-token");
    expect(hit.headers["webhook-id"]).toBe(reply.message!.id);
    expect(
      await verifySignature(
        "s3cret-token",
        hit.headers["webhook-id"],
        hit.headers["webhook-timestamp"],
        hit.body,
        hit.headers["webhook-signature"],
      ),
    ).toBe(true);
    const payload = JSON.parse(hit.body);
    expect(payload).toMatchObject({
      id: reply.message!.id,
      type: "outgoing",
      content: reply.message!.content,
      conversation: {
        id: reply.conversationId,
        type: "individual",
        status: "open",
        progress_status: "ai_processing",
        auto_reply_enabled: true,
        assignee: null,
      },
      inbox: { id: inbox, channel_type: "api" },
      contact: null,
      sender: { id: bot.id, name: bot.name, type: "chatbot" },
      attachments: [],
      metadata: {},
    });
    expect(payload.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);

    const [old] = await waitFor(
      () => receivedAt(`/ok/${legacy}`),
      (r) => r.length > 0,
    );
    expect(old.method).toBe("PUT");
    expect(JSON.parse(old.body)).toMatchObject({
      type: "incoming",
      content: 'Say "hi"\nplease',
      conversation: reply.conversationId,
      feedback: null,
      attachments: [],
      citations: [],
    });
    expect(JSON.parse(old.body).created_at).toMatch(/^\d{13}$/);
    expect(old.headers["x-webhook-secret"]).toBeUndefined();

    const [g] = await waitFor(
      () => receivedAt(`/ok/${genesys}`),
      (r) => r.length > 0,
    );
    expect(JSON.parse(g.body)).toMatchObject({
      type: "Text",
      text: reply.message!.content,
      channel: { platform: "Open" },
    });

    const [c] = await waitFor(
      () => receivedAt(`/ok/${custom}`),
      (r) => r.length > 0,
    );
    expect(JSON.parse(c.body)).toEqual({ text: reply.message!.content, who: bot.name, kind: "chatbot", inbox: "api" });

    await new Promise((r) => setTimeout(r, 500));
    expect(await receivedAt(`/ok/${disabled}`)).toEqual([]);
    const records = await deliveries(owner, eq(webhookDeliveries.webhookId, standard));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      status: "success",
      responseStatus: 200,
      attempts: 1,
      messageId: reply.message!.id,
    });
  });

  it("a receiver answering 500 or hanging: a recorded failure, not retried; the next message is sent", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    const failing = uuidv7();
    const hanging = uuidv7();
    await addWebhook(owner, inbox, { url: receiver(`/fail/${failing}`) });
    await addWebhook(owner, inbox, { url: receiver(`/hang/${hanging}`) });
    const first = await talk(owner, bot.id, "one");
    const rows = await waitFor(
      async () => deliveries(owner, eq(webhookDeliveries.messageId, first.message!.id)),
      (r) => r.length === 2 && r.every((d) => d.status === "failure"),
    );
    const byUrl = Object.fromEntries(rows.map((r) => [r.url!.includes("/fail/") ? "fail" : "hang", r]));
    expect(byUrl.fail).toMatchObject({ status: "failure", responseStatus: 500, attempts: 1 });
    expect(byUrl.fail.error).toContain("500");
    expect(byUrl.hang).toMatchObject({ status: "failure", responseStatus: null });
    expect(byUrl.hang.error).toBe("timed out after 1.5 s");

    const second = await talk(owner, bot.id, "two", first.conversationId);
    await waitFor(
      () => receivedAt(`/fail/${failing}`),
      (r) => r.length >= 2,
    );
    await new Promise((r) => setTimeout(r, 1000));
    const failed = await receivedAt(`/fail/${failing}`);
    expect(failed.map((r) => JSON.parse(r.body).id)).toEqual([first.message!.id, second.message!.id]);
    expect(await receivedAt(`/hang/${hanging}`)).toHaveLength(2);
  });

  it("a custom template that fails to render at delivery: a recorded failure saying why, nothing sent", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    // Saved templates are checked against sample data; written straight to D1, this one fails on every event.
    const hook = await addWebhook(owner, bot.defaultInbox!.id, {
      templatePreset: "custom",
      customTemplate: '{"n": {{ range(0, 3, 0) | length }}}',
    });
    const reply = await talk(owner, bot.id, "render me");
    const record = await failedAttempt(owner, reply.message!.id);
    expect(record).toMatchObject({ status: "failure", attempts: 1, responseStatus: null });
    expect(record.error).toBe("The payload could not be built: range() step must not be zero.");
    expect(await receivedAt(`/ok/${hook}`)).toEqual([]);
  });

  it("a redelivered queue message or a second consumer does not push twice or add a record", async () => {
    const { owner, hook, reply, record } = await deliveredOnce("once");
    expect(
      await runQueue("webhook-deliveries", [{ id: "redelivered", attempts: 2, body: { deliveryId: record.id } }]),
    ).toMatchObject({
      outcome: "ok",
      retryBatch: { retry: false },
      retryMessages: [],
      explicitAcks: ["redelivered"],
    });
    expect(
      await deliver(env, db(), await conversationData(owner.organizationId, record.conversationId!), record.id),
    ).toBe("skipped");
    expect(await receivedAt(`/ok/${hook}`)).toHaveLength(1);
    expect(await deliveries(owner, eq(webhookDeliveries.messageId, reply.message!.id))).toHaveLength(1);
  });

  it("a queue event the runtime has ended (settling throws) still delivers; the consumer does not reject", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const hook = await addWebhook(owner, bot.defaultInbox!.id, { isEnabled: false });
    const reply = await talk(owner, bot.id, "late");
    await db().update(webhooks).set({ isEnabled: true }).where(eq(webhooks.id, hook));
    const id = await pendingDelivery(owner, bot, hook, reply);
    // What workerd throws once it has cancelled the event (as hung): the message cannot be settled any more.
    const ended = () => {
      throw new Error("Cannot perform I/O on behalf of a different request. (I/O type: QueueEventResult)");
    };
    const message: Message<{ deliveryId: string }> = {
      id: "ended",
      timestamp: new Date(),
      attempts: 1,
      body: { deliveryId: id },
      ack: ended,
      retry: ended,
    };
    const batch: MessageBatch<{ deliveryId: string }> = {
      queue: "webhook-deliveries",
      messages: [message],
      metadata: { metrics: { backlogCount: 1, backlogBytes: 0 } },
      ackAll: ended,
      retryAll: ended,
    };
    await expect(worker.queue!(batch, env, createExecutionContext())).resolves.toBeUndefined();
    expect(await receivedAt(`/ok/${hook}`)).toHaveLength(1);
    const [record] = await deliveries(owner, eq(webhookDeliveries.id, id));
    expect(record.status).toBe("success");
  });

  it("a delivery the queue never heard of (crash before enqueue) is sent by the housekeeping cron", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const reply = await talk(owner, bot.id, "hello");
    const hook = await addWebhook(owner, bot.defaultInbox!.id, {});
    const id = await pendingDelivery(owner, bot, hook, reply, { createdAt: Date.now() - 5 * 60_000, named: true });
    await runHousekeeping(env);
    const [hit] = await waitFor(
      () => receivedAt(`/ok/${hook}`),
      (r) => r.length > 0,
    );
    expect(JSON.parse(hit.body).id).toBe(reply.message!.id);
    const [row] = await waitFor(
      async () => deliveries(owner, eq(webhookDeliveries.id, id)),
      (r) => r[0]?.status === "success",
    );
    expect(row.status).toBe("success");
  });

  it("a payload is read from the conversation its record names, in the record's organization only", async () => {
    const { owner, bot, reply, record: sent } = await deliveredOnce("hello");
    // The outbox names the conversation; so does the payload read through it.
    expect(sent.conversationId).toBe(reply.conversationId);
    const body = JSON.parse(sent.requestBody!);
    expect(body).toMatchObject({ id: reply.message!.id, conversation: { id: reply.conversationId } });
    // Written without it (by an older worker; another webhook, added since): found through the payload the event's
    // earlier attempt sent (its message is in its conversation's object, not in D1), the same payload.
    const later = await addWebhook(owner, bot.defaultInbox!.id, {});
    const unnamed = await pendingDelivery(owner, bot, later, reply);
    expect(await deliver(env, db(), await conversationData(owner.organizationId, reply.conversationId), unnamed)).toBe(
      "sent",
    );
    const [again] = await deliveries(owner, eq(webhookDeliveries.id, unnamed));
    expect(again).toMatchObject({ status: "success", requestBody: sent.requestBody });
    // Another organization's record naming this conversation reads nothing of it.
    const other = await seedOwner();
    const otherBot = await createChatbot(other);
    const otherHook = await addWebhook(other, otherBot.defaultInbox!.id, {});
    const foreign = await pendingDelivery(other, otherBot, otherHook, reply, { named: true });
    expect(await deliver(env, db(), await conversationData(other.organizationId, reply.conversationId), foreign)).toBe(
      "sent",
    );
    const [refused] = await deliveries(other, eq(webhookDeliveries.id, foreign));
    expect(refused).toMatchObject({ status: "failure", error: "The message no longer exists." });
    expect(await receivedAt(`/ok/${otherHook}`)).toEqual([]);
  });

  it("a webhook disabled after its event was recorded sends nothing, and the record says why", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const reply = await talk(owner, bot.id, "hello");
    const hook = await addWebhook(owner, bot.defaultInbox!.id, { isEnabled: false });
    const id = await pendingDelivery(owner, bot, hook, reply);
    expect(await deliver(env, db(), await conversationData(owner.organizationId, reply.conversationId), id)).toBe(
      "sent",
    );
    const [row] = await deliveries(owner, eq(webhookDeliveries.id, id));
    expect(row).toMatchObject({
      status: "failure",
      responseStatus: null,
      attempts: 1,
      error: "The webhook was disabled before delivery.",
    });
    expect(await receivedAt(`/ok/${hook}`)).toEqual([]);
  });

  it("redirects to internal addresses are refused at delivery", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const hook = uuidv7();
    await addWebhook(owner, bot.defaultInbox!.id, {
      url: receiver(`/redirect/${hook}?to=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}`),
    });
    const reply = await talk(owner, bot.id, "hello");
    const row = await failedAttempt(owner, reply.message!.id);
    expect(row.error).toMatch(/^Redirect refused/);
  });
});
