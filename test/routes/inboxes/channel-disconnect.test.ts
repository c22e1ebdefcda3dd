// DELETE /inboxes/{id}/channel/: a messaging inbox disconnected from its platform (docs/decisions.md, "Disconnecting
// a channel"), against the platforms' stand-ins: what the platform still sends is refused and stores nothing, what
// was queued fails as disconnected, the inbox and its conversations stay, and connecting again works.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { channelEvents } from "../../../src/db/schema";
import { takeInEvents } from "../../../src/services/channels/intake";
import {
  NO_SUCH_ID,
  PREFIXES,
  call,
  data,
  db,
  expectError,
  seedMember,
  seedOwner,
  unique,
  type Actor,
} from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { bodyOf } from "../../support/api";
import {
  conversationsOf,
  keepEvent,
  messagesWhen,
  onlyConversation,
  post,
  storedEvents,
  type MessageItem,
} from "../../channels/support";
import { newToken, sent, telegram, telegramInbox, textUpdate } from "../../channels/telegram-support";
import { newLineInbox, signed, textEvent, newUser, sent as lineSent } from "../../channels/line-support";
import { deliver, emailInbox, mailId, visitorAddress } from "../../channels/email-support";

const rowOf = (inboxId: string) =>
  env.DB.prepare("select * from inbox_channels where inbox_id = ?").bind(inboxId).first<Record<string, unknown>>();

const disconnect = async (actor: Actor, inboxId: string, prefix?: string) => {
  const res = await actor.fetch("DELETE", `/inboxes/${inboxId}/channel/`, undefined, prefix ? { prefix } : {});
  expect(res.status, await res.clone().text()).toBe(200);
  return bodyOf<"DELETE /inboxes/{id}/channel/">(res);
};

/** A mail from a visitor to `address`, as Email Routing hands it over. */
const mail = (address: string) => {
  const from = visitorAddress();
  const raw = [
    `From: Jane <${from}>`,
    `To: ${address}`,
    "Subject: Where is my order?",
    `Message-ID: ${mailId()}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Hello, where is my order?",
  ].join("\r\n");
  return deliver(raw, from, address);
};

const lastReply = (messages: MessageItem[]) => messages.filter((m) => m.senderType !== "contact").at(-1);

describe("DELETE /inboxes/{id}/channel/", () => {
  it.each(PREFIXES)(
    "Telegram under %s: the webhook removed, the credentials forgotten, the chat kept",
    async (prefix) => {
      const { owner, token, inbox, postUpdate } = await telegramInbox();
      expect((await postUpdate(textUpdate("Hello"))).status).toBe(200);
      const conversation = await onlyConversation(owner, inbox.inboxId);
      // What Telegram would post next, signed with the secret token connect gave it.
      const later = await telegram.sign({ token, update: textUpdate("Still there?") });
      const events = await storedEvents(owner.organizationId, inbox.inboxId);

      const disconnected = await disconnect(owner, inbox.inboxId, prefix);
      expect(disconnected).toMatchObject({
        inboxId: inbox.inboxId,
        channelType: "telegram",
        credentials: { botToken: null },
        status: "not_connected",
        lastError: null,
        lastEventAt: null,
        platformRefusal: null,
      });
      expect(disconnected.detail).toMatch(/webhook to .*\/channels\/telegram\/.* was removed/);
      expect(await sent(token, "deleteWebhook")).toHaveLength(1);
      expect(await rowOf(inbox.inboxId)).toBeNull();
      const { detail: _detail, platformRefusal: _refusal, ...record } = disconnected;
      const read = await owner.fetch("GET", `/inboxes/${inbox.inboxId}/channel/`);
      expect(await read.json()).toEqual(record);

      // What Telegram still sends is refused as for an inbox never connected, and nothing is stored.
      await expectNotFound(await post(inbox.path, later));
      expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(events);
      // The inbox and its conversation stay.
      expect((await owner.fetch("GET", `/inboxes/${inbox.inboxId}/`)).status).toBe(200);
      expect((await conversationsOf(owner, inbox.inboxId)).map((c) => c.id)).toEqual([conversation.id]);
    },
  );

  it("Telegram connected again with a new bot: a new webhook secret, and its updates come in", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    const before = await rowOf(inbox.inboxId);
    await disconnect(owner, inbox.inboxId);
    // Disconnecting what is not connected is the same answer: nothing to forget.
    expect((await disconnect(owner, inbox.inboxId)).detail).toMatch(/nothing to forget/);
    expect(await sent(token, "deleteWebhook")).toHaveLength(1);

    const next = newToken();
    expect((await owner.fetch("PUT", `/inboxes/${inbox.inboxId}/channel/`, { botToken: next })).status).toBe(200);
    const connected = await owner.fetch("POST", `/inboxes/${inbox.inboxId}/channel/connect/`);
    expect(connected.status, await connected.clone().text()).toBe(200);
    expect((await connected.json<{ status: string }>()).status).toBe("connected");
    const [webhook] = await sent(next, "setWebhook");
    expect(webhook.body.secret_token).not.toBe(before?.webhook_secret);
    // The old bot's secret no longer opens the door; the new one's does.
    expect((await postUpdate(textUpdate("Old bot"))).status).toBe(401);
    const fresh = await post(inbox.path, await telegram.sign({ token: next, update: textUpdate("New bot") }));
    expect(fresh.status).toBe(200);
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(1);
  });

  it("Telegram refusing deleteWebhook: disconnected all the same, the refusal in the answer", async () => {
    const { owner, token, inbox } = await telegramInbox();
    const { webhookUrl } = await bodyOf<"GET /inboxes/{id}/channel/">(
      await owner.fetch("GET", `/inboxes/${inbox.inboxId}/channel/`),
    );
    await telegram.script(token, [
      { status: 200, body: { ok: true, result: { url: webhookUrl, pending_update_count: 0 } } },
      { status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } },
    ]);
    const disconnected = await disconnect(owner, inbox.inboxId);
    expect(disconnected).toMatchObject({
      status: "not_connected",
      lastError: null,
      credentials: { botToken: null },
      platformRefusal: "Telegram answered 401: Unauthorized",
    });
    expect(disconnected.detail).toMatch(/^Disconnected here, but Telegram did not remove its webhook/);
    expect(await sent(token, "deleteWebhook")).toHaveLength(1);
    expect(await rowOf(inbox.inboxId)).toBeNull();
  });

  it("secrets this deployment cannot open: disconnected all the same, Telegram not asked", async () => {
    const { owner, token, inbox } = await telegramInbox();
    // Sealed under another ENCRYPTION_KEY, as after the key was changed: AES-GCM refuses to open it.
    await env.DB.prepare("update inbox_channels set secrets_sealed = ? where inbox_id = ?")
      .bind("v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAAAAAAAA", inbox.inboxId)
      .run();
    const disconnected = await disconnect(owner, inbox.inboxId);
    expect(disconnected.status).toBe("not_connected");
    expect(disconnected.platformRefusal).toMatch(
      /^Telegram was not asked to remove its webhook: the stored secrets could not be opened \(.+\)\.$/,
    );
    expect(await sent(token, "getWebhookInfo")).toHaveLength(0);
    expect(await rowOf(inbox.inboxId)).toBeNull();
  });

  it("Telegram's webhook pointing at another service is left to it", async () => {
    const { owner, token, inbox } = await telegramInbox();
    const elsewhere = "https://bots.example.net/telegram/hook";
    await telegram.script(token, [{ status: 200, body: { ok: true, result: { url: elsewhere } } }]);
    const disconnected = await disconnect(owner, inbox.inboxId);
    expect(disconnected.detail).toContain(`points at ${elsewhere}, not at this inbox: left as it is`);
    expect(disconnected.platformRefusal).toBeNull();
    expect(await sent(token, "deleteWebhook")).toHaveLength(0);
  });

  it("a reply queued while Telegram is down fails as disconnected, not sent by the bot connected next", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    await telegram.outage(token, 120);
    try {
      expect((await postUpdate(textUpdate("Hello"))).status).toBe(200);
      const conversation = await onlyConversation(owner, inbox.inboxId);
      // The reply was tried twice and refused: its next attempt is two seconds away.
      await messagesWhen(owner, conversation.id, (m) => {
        const delivery = lastReply(m)?.metadata?.channelDelivery;
        return delivery?.status === "pending" && delivery.attempts >= 2;
      });
      const disconnected = await disconnect(owner, inbox.inboxId);
      expect(disconnected.status).toBe("not_connected");
      expect(disconnected.platformRefusal).toMatch(/^Telegram answered 503/);
      // Another bot connected before that attempt: the reply was written for the first one's chat.
      const next = newToken();
      expect((await owner.fetch("PUT", `/inboxes/${inbox.inboxId}/channel/`, { botToken: next })).status).toBe(200);
      expect((await owner.fetch("POST", `/inboxes/${inbox.inboxId}/channel/connect/`)).status).toBe(200);
      const messages = await messagesWhen(owner, conversation.id, (m) => {
        return lastReply(m)?.metadata?.channelDelivery?.status === "failed";
      });
      const reply = lastReply(messages)!;
      expect(reply.metadata?.channelDelivery?.error).toBe(
        "The inbox's channel was disconnected before this reply was sent.",
      );
      // Nor by the console's Retry: the reply stays failed, with its reason.
      const retry = await owner.fetch("POST", `/messages/${reply.id}/channel-delivery/retry/`);
      const refusal = await expectError(retry, 409, "conflict");
      expect(refusal.detail).toMatch(/^The inbox's channel was disconnected since this reply was queued/);
      const after = lastReply(await messagesWhen(owner, conversation.id, () => true))!;
      expect(after.metadata?.channelDelivery).toEqual(reply.metadata?.channelDelivery);
      expect(await sent(next, "sendMessage")).toHaveLength(0);
    } finally {
      await telegram.outage(token, 0);
    }
  });

  it("a reply written once the channel is disconnected fails at once, saying so; none goes out", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    await postUpdate(textUpdate("Hello"));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => lastReply(m)?.metadata?.channelDelivery?.status === "sent");
    await disconnect(owner, inbox.inboxId);
    const res = await owner.fetch("POST", "/messages/outgoing/", {
      conversation: conversation.id,
      content: "Still here?",
    });
    expect(res.status, await res.clone().text()).toBe(201);
    // It was stored with no delivery: nothing told the operator it went nowhere.
    const messages = await messagesWhen(
      owner,
      conversation.id,
      (m) => lastReply(m)?.content === "Still here?" && !!lastReply(m)?.metadata?.channelDelivery,
    );
    expect(lastReply(messages)!.metadata?.channelDelivery).toMatchObject({
      status: "failed",
      error: "The inbox's channel is not connected: the reply was not sent.",
      platformMessageId: null,
    });
    // A private note is the team's: no delivery.
    await owner.fetch("POST", "/messages/outgoing/", { conversation: conversation.id, content: "FYI", private: true });
    const note = (await messagesWhen(owner, conversation.id, (m) => m.some((x) => x.content === "FYI"))).find(
      (m) => m.content === "FYI",
    )!;
    expect(note.metadata?.channelDelivery).toBeUndefined();
    expect(await sent(token, "sendMessage")).toHaveLength(1);
  });

  it("an event still pending for the bot disconnected is set aside, not taken in through the next bot", async () => {
    const { owner, inbox } = await telegramInbox();
    const userId = 7303000 + Math.floor(Math.random() * 1000);
    // Kept for the first bot, still pending (its chat waited behind a file Telegram could not give yet, say).
    const now = Date.now();
    const eventId = String(Math.floor(Math.random() * 1e9));
    const event = {
      eventId,
      threadKey: String(userId),
      sender: { id: String(userId), name: "Eve" },
      text: "Is my order on its way?",
      attachments: [],
      at: now,
    };
    const plane = await data(owner.organizationId);
    await keepEvent(owner.organizationId, inbox.inboxId, event);
    await disconnect(owner, inbox.inboxId);
    // Another bot connected to the inbox.
    const next = newToken();
    expect((await owner.fetch("PUT", `/inboxes/${inbox.inboxId}/channel/`, { botToken: next })).status).toBe(200);
    expect((await owner.fetch("POST", `/inboxes/${inbox.inboxId}/channel/connect/`)).status).toBe(200);

    const later: Promise<unknown>[] = [];
    const refs = [{ inboxId: inbox.inboxId, eventId }];
    expect(await takeInEvents(env, db(), plane, refs, (p) => later.push(p))).toEqual(new Set());
    await Promise.allSettled(later);

    // Telegram's private chat id is the user's: the second bot would have answered the first one's user.
    expect(await sent(next, "sendMessage")).toEqual([]);
    expect(await conversationsOf(owner, inbox.inboxId)).toEqual([]);
    const [row] = await plane.select().from(channelEvents).where(eq(channelEvents.eventId, eventId));
    expect(row).toMatchObject({ status: "ignored", error: "The inbox's channel was disconnected." });
  });

  it("LINE: the credentials forgotten, what to switch off at LINE said, its events refused", async () => {
    const { owner, creds, inbox } = await newLineInbox();
    const later = await signed(creds.channelSecret, textEvent(newUser(), "Hello"));
    const disconnected = await disconnect(owner, inbox.inboxId);
    expect(disconnected).toMatchObject({
      channelType: "line",
      credentials: { channelId: null, channelSecret: null, channelAccessToken: null },
      status: "not_connected",
      platformRefusal: null,
    });
    expect(disconnected.detail).toContain('turn off "Use webhook"');
    // LINE has no call to remove the webhook URL: nothing was asked of it beyond connect's.
    expect(await lineSent(creds.channelAccessToken, "/v2/bot/channel/webhook/endpoint")).toHaveLength(2);
    await expectNotFound(await post(inbox.path, later));
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(0);
  });

  it("e-mail: mail to the address is refused, not dropped; the address can be connected again", async () => {
    const owner = await seedOwner();
    const inbox = await emailInbox(owner);
    const disconnected = await disconnect(owner, inbox.inboxId);
    expect(disconnected).toMatchObject({ credentials: { address: null, fromName: null }, status: "not_connected" });
    expect(disconnected.detail).toContain(`Remove the rule for ${inbox.address} in Cloudflare Email Routing`);
    expect((await mail(inbox.address)).rejected).toBe(`${inbox.address} is not the address of an inbox here.`);
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(0);

    // Connected again, the address takes mail again.
    const saved = await owner.fetch("PUT", `/inboxes/${inbox.inboxId}/channel/`, { address: inbox.address });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const connected = await owner.fetch("POST", `/inboxes/${inbox.inboxId}/channel/connect/`);
    expect(connected.status, await connected.clone().text()).toBe(200);
    expect((await mail(inbox.address)).rejected).toBeNull();
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(1);
  });

  it("400 for a web inbox, 404 for another organization's and an unknown one, 403 without inbox.manage", async () => {
    const owner = await seedOwner();
    const web = await owner.fetch("POST", "/inboxes/", { name: unique("web"), channelType: "web" });
    expect(web.status).toBe(201);
    const webId = (await bodyOf<"POST /inboxes/">(web)).id;
    await expectError(await owner.fetch("DELETE", `/inboxes/${webId}/channel/`), 400, "not_a_messaging_inbox");

    const theirs = await telegramInbox();
    await expectNotFound(await owner.fetch("DELETE", `/inboxes/${theirs.inbox.inboxId}/channel/`));
    await expectNotFound(await owner.fetch("DELETE", `/inboxes/${NO_SUCH_ID}/channel/`));
    await expectNotFound(await owner.fetch("DELETE", `/inboxes/123/channel/`));
    expect(await rowOf(theirs.inbox.inboxId)).not.toBeNull();

    const viewer = await seedMember(theirs.owner, ["inbox.view"]);
    await expectDenied(await viewer.fetch("DELETE", `/inboxes/${theirs.inbox.inboxId}/channel/`));
    expect((await rowOf(theirs.inbox.inboxId))?.status).toBe("connected");
    expect(await sent(theirs.token, "deleteWebhook")).toHaveLength(0);
  });

  it("401 without a key", async () => {
    await expectError(await call("DELETE", `/api/v1/inboxes/${NO_SUCH_ID}/channel/`), 401, "not_authenticated");
    await expectError(await call("DELETE", `/api/inboxes/${NO_SUCH_ID}/channel/`), 401, "not_authenticated");
  });
});
