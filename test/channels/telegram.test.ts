// Telegram end to end, against the Bot API stand-in (test/support/platforms/telegram.mjs): the
// worked example of a channel's tests (test/channels/support.ts).
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedOwner, unique } from "../harness";
import {
  channelInbox,
  conversationsOf,
  eventually,
  messagesOf,
  messagesWhen,
  onlyConversation,
  post,
  standIn,
} from "./support";
import { bodyOf } from "../support/api";

const telegram = standIn("telegram");
const newToken = () => `${Math.floor(Math.random() * 1e9)}:${unique("AAH").replace(/[^A-Za-z0-9_-]/g, "")}`;

let updateId = Math.floor(Math.random() * 1e8);
/** A private text message update, shaped as the Bot API documents it. */
function textUpdate(
  text: string,
  from = { id: 5551234, first_name: "Olivia", last_name: "Chen", username: "olivia" },
  chat: Record<string, unknown> = { id: from.id, type: "private", first_name: from.first_name },
) {
  return {
    update_id: ++updateId,
    message: {
      message_id: updateId % 100000,
      from: { ...from, is_bot: false, language_code: "en" },
      chat,
      date: Math.floor(Date.now() / 1000),
      text,
    },
  };
}

const sent = async (token: string, method: string) =>
  (await telegram.requests(token)).filter((r) => r.path === `/bot${token}/${method}`);

describe("Telegram", () => {
  it("connects (getMe, setWebhook with a secret token), takes a text in and sends the reply out", async () => {
    const owner = await seedOwner();
    const token = newToken();
    const inbox = await channelInbox(owner, "telegram", { botToken: token });
    const [webhook] = await sent(token, "setWebhook");
    expect(webhook.body).toMatchObject({
      url: expect.stringMatching(new RegExp(`^https?://[^/]+${inbox.path}$`)),
      allowed_updates: ["message", "callback_query"],
    });
    expect(webhook.body.secret_token).toMatch(/^[A-Za-z0-9]{48}$/);
    const channel = await bodyOf<"GET /inboxes/{id}/channel/">(
      await owner.fetch("GET", `/inboxes/${inbox.inboxId}/channel/`),
    );
    expect(channel).toMatchObject({
      status: "connected",
      lastError: null,
      credentials: { botToken: expect.stringMatching(/…/) },
    });
    expect(JSON.stringify(channel)).not.toContain(token);

    const update = textUpdate("Where is my parcel?");
    const res = await post(inbox.path, await telegram.sign({ token, update }));
    expect(res.status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    expect(conversation).toMatchObject({ type: "individual", contact: { name: "Olivia Chen" } });
    const messages = await messagesWhen(owner, conversation.id, (m) =>
      m.some((x) => x.metadata?.channelDelivery?.status === "sent"),
    );
    expect(messages.map((m) => [m.senderType, m.content])).toEqual([
      ["contact", "Where is my parcel?"],
      ["chatbot", 'You said: "Where is my parcel?".'],
    ]);
    expect(messages[0].metadata?.channel).toMatchObject({ type: "telegram", eventId: String(update.update_id) });
    const [reply] = await sent(token, "sendMessage");
    expect(reply.body).toMatchObject({
      chat_id: "5551234",
      parse_mode: "HTML",
      text: 'You said: "Where is my parcel?".',
    });
    expect(messages[1].metadata?.channelDelivery).toMatchObject({
      status: "sent",
      attempts: 1,
      error: null,
      platformMessageIds: [expect.any(String)],
    });
    // The visitor saw "typing" while the assistant wrote.
    expect((await sent(token, "sendChatAction"))[0].body).toMatchObject({ chat_id: "5551234", action: "typing" });
    const contact = await bodyOf<"GET /contacts/{id}/">(
      await owner.fetch("GET", `/contacts/${conversation.contact!.id}/`),
    );
    expect(contact.sourceId).toBe("5551234");
  });

  it("outgoing webhooks of the inbox fire as for every inbox, with the platform as inbox.channel_type", async () => {
    const owner = await seedOwner();
    const token = newToken();
    const inbox = await channelInbox(owner, "telegram", { botToken: token });
    const hook = await bodyOf<"POST /inboxes/{inboxId}/webhooks/">(
      await owner.fetch("POST", `/inboxes/${inbox.inboxId}/webhooks/`, {
        name: "CRM",
        direction: "incoming",
        url: `${env.TEST_RECEIVER_URL}/ok/telegram`,
      }),
    );
    await post(inbox.path, await telegram.sign({ token, update: textUpdate("Do you ship to Osaka?") }));
    const records = await eventually(async () => {
      const page = await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/records/">(
        await owner.fetch("GET", `/inboxes/${inbox.inboxId}/webhooks/${hook.id}/records/?status=success`),
      );
      return page.results.length > 0 && page.results;
    });
    expect(JSON.parse(records[0].requestBody!)).toMatchObject({
      type: "incoming",
      content: "Do you ship to Osaka?",
      inbox: { id: inbox.inboxId, channel_type: "telegram" },
    });
  });

  it("a redelivered update makes no second message; a wrong or missing secret is 401 and stores nothing", async () => {
    const owner = await seedOwner();
    const token = newToken();
    const inbox = await channelInbox(owner, "telegram", { botToken: token }, { chatbot: {} });
    const signed = await telegram.sign({ token, update: textUpdate("Hello") });
    expect((await post(inbox.path, signed)).status).toBe(200);
    expect((await post(inbox.path, signed)).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.length === 2);
    await new Promise((r) => setTimeout(r, 500));
    expect((await messagesOf(owner, conversation.id)).filter((m) => m.senderType === "contact")).toHaveLength(1);

    const forged = await telegram.sign({ token, update: textUpdate("forged"), secret: "not-the-secret" });
    const refused = await post(inbox.path, forged);
    expect(refused.status).toBe(401);
    const unsigned = await post(inbox.path, {
      headers: { "content-type": "application/json" },
      body: JSON.stringify(textUpdate("unsigned")),
    });
    expect(unsigned.status).toBe(401);
    const rows = await env.DB.prepare("select count(*) as n from channel_events where inbox_id = ?")
      .bind(inbox.inboxId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it("a photo is downloaded into an attachment; a group chat is a group conversation", async () => {
    const owner = await seedOwner();
    const token = newToken();
    const inbox = await channelInbox(owner, "telegram", { botToken: token });
    const from = { id: 99887766, first_name: "Kenji", last_name: "", username: "kenji" };
    const photo = textUpdate("", from);
    const { text: _text, ...message } = photo.message;
    const update = {
      ...photo,
      message: {
        ...message,
        caption: "My receipt",
        photo: [
          { file_id: "small", file_unique_id: "s", width: 90, height: 90 },
          { file_id: "large", file_unique_id: "l", width: 800, height: 800 },
        ],
      },
    };
    await post(inbox.path, await telegram.sign({ token, update }));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const [incoming] = await messagesWhen(owner, conversation.id, (m) => m.length >= 1);
    expect(incoming).toMatchObject({
      content: "My receipt",
      attachments: [{ type: "image", contentType: "image/jpeg" }],
    });
    expect((await sent(token, "getFile"))[0].body).toMatchObject({ file_id: "large" });
    const attachment = await bodyOf<"GET /attachments/{id}/">(
      await owner.fetch("GET", `/attachments/${incoming.attachments![0].id}/`),
    );
    expect(attachment.size).toBe(70); // the stand-in's PNG

    const group = textUpdate("Hi all", from, { id: -100123, type: "supergroup", title: "Acme buyers" });
    await post(inbox.path, await telegram.sign({ token, update: group }));
    const grouped = await eventually(async () =>
      (await conversationsOf(owner, inbox.inboxId)).find((c) => c.type === "group"),
    );
    expect(grouped).toMatchObject({ title: "Acme buyers" });
  });

  it("after a takeover the assistant is silent and the person's reply is delivered", async () => {
    const owner = await seedOwner();
    const token = newToken();
    const inbox = await channelInbox(owner, "telegram", { botToken: token });
    await post(inbox.path, await telegram.sign({ token, update: textUpdate("Hello") }));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.length === 2);
    expect((await owner.fetch("POST", `/conversations/${conversation.id}/take-over/`)).status).toBe(200);
    await post(inbox.path, await telegram.sign({ token, update: textUpdate("Are you a bot?") }));
    await messagesWhen(owner, conversation.id, (m) => m.length === 3);
    const agent = await owner.fetch("POST", "/messages/outgoing/", {
      conversation: conversation.id,
      content: "Hi, this is **Sam** from Acme.",
    });
    expect(agent.status, await agent.clone().text()).toBe(201);
    const messages = await messagesWhen(
      owner,
      conversation.id,
      (m) => m.at(-1)?.metadata?.channelDelivery?.status === "sent",
    );
    expect(messages.map((m) => m.senderType)).toEqual(["contact", "chatbot", "contact", "user"]);
    const replies = await sent(token, "sendMessage");
    expect(replies.map((r) => r.body.text)).toEqual([
      "Hello! How can I help you today?",
      "Hi, this is <b>Sam</b> from Acme.",
    ]);
  });

  it(
    "a 429 is tried again after its retry_after and delivered once; a 400 is failed with Telegram's words and " +
      "not tried again",
    async () => {
      const owner = await seedOwner();
      const token = newToken();
      const inbox = await channelInbox(owner, "telegram", { botToken: token });
      await telegram.script(token, [
        { status: 200, body: { ok: true, result: true } }, // sendChatAction
        {
          status: 429,
          body: {
            ok: false,
            error_code: 429,
            description: "Too Many Requests: retry after 1",
            parameters: { retry_after: 1 },
          },
        },
      ]);
      const started = Date.now();
      await post(inbox.path, await telegram.sign({ token, update: textUpdate("Hello") }));
      const conversation = await onlyConversation(owner, inbox.inboxId);
      const messages = await messagesWhen(
        owner,
        conversation.id,
        (m) => m.at(-1)?.metadata?.channelDelivery?.status === "sent",
      );
      expect(messages.at(-1)!.metadata!.channelDelivery).toMatchObject({ status: "sent", attempts: 2 });
      const attempts = await sent(token, "sendMessage");
      expect(attempts).toHaveLength(2);
      expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1000);
      expect(attempts[1].at - started).toBeLessThan(10_000);

      await telegram.script(token, [
        { status: 200, body: { ok: true, result: true } },
        { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } },
      ]);
      await post(inbox.path, await telegram.sign({ token, update: textUpdate("Again") }));
      const failed = await messagesWhen(
        owner,
        conversation.id,
        (m) => m.length === 4 && m[3].metadata?.channelDelivery?.status === "failed",
      );
      expect(failed[3].metadata!.channelDelivery).toMatchObject({
        status: "failed",
        attempts: 1,
        error: "Telegram answered 400: Bad Request: chat not found",
      });
      await new Promise((r) => setTimeout(r, 1500));
      expect(await sent(token, "sendMessage")).toHaveLength(3);

      // Retried by hand (the console's Retry): delivered now.
      const retried = await owner.fetch("POST", `/messages/${failed[3].id}/channel-delivery/retry/`);
      expect(retried.status, await retried.clone().text()).toBe(202);
      await messagesWhen(owner, conversation.id, (m) => m[3].metadata?.channelDelivery?.status === "sent");
      expect((await owner.fetch("POST", `/messages/${failed[3].id}/channel-delivery/retry/`)).status).toBe(409);
    },
  );

  it("a refused token fails connect with Telegram's answer", async () => {
    const owner = await seedOwner();
    const inbox = await channelInbox(owner, "telegram", { botToken: "123:revoked" }, { connect: false });
    const res = await owner.fetch("POST", `/inboxes/${inbox.inboxId}/channel/connect/`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "channel_connect_failed",
      detail: "Telegram answered 401: Unauthorized",
    });
    expect(await (await owner.fetch("GET", `/inboxes/${inbox.inboxId}/channel/`)).json()).toMatchObject({
      status: "failing",
      lastError: "Telegram answered 401: Unauthorized",
    });
  });
});
