// Telegram end to end, against the Bot API stand-in (test/support/platforms/telegram.mjs): the
// worked example of a channel's tests (test/channels/support.ts).
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedOwner } from "../harness";
import { bodyOf } from "../support/api";
import { uploadKey } from "../routes/attachments/support";
import {
  chatOrTokenRefused,
  connectRefused,
  nothingToShow,
  redeliveredAndForged,
  shownChannel,
  takenOver,
  textInReplyOut,
} from "./scenes";
import {
  channelInbox,
  conversationsOf,
  eventually,
  lastIs,
  messagesWhen,
  nthIs,
  onlyConversation,
  unsigned,
  type Scripted,
} from "./support";
import { sent, telegram, telegramInbox, textUpdate, TOO_MANY_REQUESTS } from "./telegram-support";

/** A text of Olivia Chen (textUpdate's sender) in through the webhook and the reply out (scenes' textInReplyOut). */
async function textFromOlivia(
  { owner, token, inbox }: Pick<Awaited<ReturnType<typeof telegramInbox>>, "owner" | "token" | "inbox">,
  text: string,
) {
  const update = textUpdate(text);
  return textInReplyOut(owner, inbox, {
    platform: "telegram",
    signed: await telegram.sign({ token, update }),
    text,
    eventId: String(update.update_id),
    platformMessageId: expect.any(String),
    contact: { sourceId: "5551234" },
  });
}

describe("Telegram", () => {
  it("connects (getMe, setWebhook with a secret token), takes a text in and sends the reply out", async () => {
    const { owner, token, inbox } = await telegramInbox();
    const [webhook] = await sent(token, "setWebhook");
    expect(webhook.body).toMatchObject({
      url: expect.stringMatching(new RegExp(`^https?://[^/]+${inbox.path}$`)),
      allowed_updates: ["message", "edited_message", "callback_query", "message_reaction"],
    });
    expect(webhook.body.secret_token).toMatch(/^[A-Za-z0-9]{48}$/);
    const connected = { status: "connected", lastError: null, credentials: { botToken: expect.stringMatching(/…/) } };
    await shownChannel(owner, inbox.inboxId, connected, [token]);
    const channel = async () =>
      bodyOf<"GET /inboxes/{id}/channel/">(await owner.fetch("GET", `/inboxes/${inbox.inboxId}/channel/`));
    const settled = await channel();

    const { conversation } = await textFromOlivia({ owner, token, inbox }, "Where is my parcel?");
    // An event is no change of the settings: `updatedAt` stays (the console's form would be made again), and
    // `lastEventAt` tells the event came.
    expect(await channel()).toMatchObject({ updatedAt: settled.updatedAt, lastEventAt: expect.any(String) });
    expect(conversation).toMatchObject({ type: "individual", contact: { name: "Olivia Chen" } });
    const [reply] = await sent(token, "sendMessage");
    expect(reply.body).toMatchObject({
      chat_id: "5551234",
      parse_mode: "HTML",
      text: 'You said: "Where is my parcel?".',
    });
    // The visitor saw "typing" while the assistant wrote.
    expect((await sent(token, "sendChatAction"))[0].body).toMatchObject({ chat_id: "5551234", action: "typing" });
  });

  it("takes a text in and replies while DB refuses the channel's last-event time (written apart, after)", async () => {
    const { owner, token, inbox } = await telegramInbox();
    const trigger = `"touch_down_${inbox.inboxId}"`;
    await env.DB.prepare(
      `CREATE TRIGGER ${trigger} BEFORE UPDATE OF last_event_at ON inbox_channels ` +
        `WHEN NEW.inbox_id = '${inbox.inboxId}' BEGIN SELECT RAISE(ABORT, 'touch refused'); END`,
    ).run();
    try {
      await textFromOlivia({ owner, token, inbox }, "Still there?");
    } finally {
      await env.DB.prepare(`DROP TRIGGER ${trigger}`).run();
    }
    const touched = await env.DB.prepare("SELECT last_event_at FROM inbox_channels WHERE inbox_id = ?1")
      .bind(inbox.inboxId)
      .first<number | null>("last_event_at");
    expect(touched).toBeNull();
  });

  it("outgoing webhooks of the inbox fire as for every inbox, with the platform as inbox.channel_type", async () => {
    const { owner, inbox, postUpdate } = await telegramInbox();
    const hook = await bodyOf<"POST /inboxes/{inboxId}/webhooks/">(
      await owner.fetch("POST", `/inboxes/${inbox.inboxId}/webhooks/`, {
        name: "CRM",
        direction: "incoming",
        url: `${env.TEST_RECEIVER_URL}/ok/telegram`,
      }),
    );
    await postUpdate(textUpdate("Do you ship to Osaka?"));
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

  it("a contact the business made for the inbox with the Telegram id as sourceId is the one who writes", async () => {
    const { owner, inbox, postUpdate } = await telegramInbox();
    const made = await bodyOf<"POST /contacts/">(
      await owner.fetch("POST", "/contacts/", {
        name: "Olivia (CRM)",
        sourceId: "5551234",
        inboxes: [{ id: inbox.inboxId }],
        metadata: { tier: "gold" },
      }),
    );
    // The same platform id in another inbox is someone else's: never taken.
    await owner.fetch("POST", "/contacts/", { name: "Elsewhere", sourceId: "5551234" });
    await postUpdate(textUpdate("Is my order gold-tier?"));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    expect(conversation.contact).toMatchObject({ id: made.id, name: "Olivia (CRM)" });
    await postUpdate(textUpdate("Still me"));
    await messagesWhen(owner, conversation.id, (m) => m.filter((x) => x.senderType === "contact").length === 2);
    const contacts = await bodyOf<"GET /contacts/">(await owner.fetch("GET", "/contacts/?pageSize=100"));
    expect(contacts.results.map((c) => c.name).sort()).toEqual(["Elsewhere", "Olivia (CRM)"]);
  });

  it("a redelivered update makes no second message; a wrong or missing secret is 401 and stores nothing", async () => {
    const { owner, token, inbox } = await telegramInbox();
    const signed = await telegram.sign({ token, update: textUpdate("Hello") });
    const forged = await telegram.sign({ token, update: textUpdate("forged"), secret: "not-the-secret" });
    const { fromContact } = await redeliveredAndForged(owner, inbox, {
      delivered: [signed, signed],
      forged: [forged, unsigned(textUpdate("unsigned"))],
    });
    expect(fromContact).toHaveLength(1);
  });

  it("a photo is downloaded into an attachment; a group chat is a group conversation", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
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
    await postUpdate(update);
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
    await postUpdate(group);
    const grouped = await eventually(async () =>
      (await conversationsOf(owner, inbox.inboxId)).find((c) => c.type === "group"),
    );
    expect(grouped).toMatchObject({ title: "Acme buyers" });
  });

  it("after a takeover the assistant is silent and the person's reply is delivered", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    await takenOver(owner, inbox, (text) => postUpdate(textUpdate(text)), "Hi, this is **Sam** from Acme.");
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
      const { owner, token, inbox, postUpdate } = await telegramInbox();
      await telegram.script(token, [
        { status: 200, body: { ok: true, result: true } }, // sendChatAction
        TOO_MANY_REQUESTS,
      ]);
      const started = Date.now();
      await postUpdate(textUpdate("Hello"));
      const conversation = await onlyConversation(owner, inbox.inboxId);
      const messages = await messagesWhen(owner, conversation.id, lastIs("sent"));
      expect(messages.at(-1)!.metadata!.channelDelivery).toMatchObject({ status: "sent", attempts: 2 });
      const attempts = await sent(token, "sendMessage");
      expect(attempts).toHaveLength(2);
      expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1000);
      expect(attempts[1].at - started).toBeLessThan(10_000);

      await telegram.script(token, [
        { status: 200, body: { ok: true, result: true } },
        { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } },
      ]);
      await postUpdate(textUpdate("Again"));
      const failed = await messagesWhen(owner, conversation.id, nthIs(3, "failed"));
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

  it("a person who blocked the bot fails their reply only; a refused token shows the channel failing", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    const typing: Scripted = { status: 200, body: { ok: true, result: true } };
    await chatOrTokenRefused(owner, inbox, {
      say: (text) => postUpdate(textUpdate(text)),
      script: (responses) => telegram.script(token, responses),
      before: [typing],
      chatRefused: {
        status: 403,
        body: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" },
      },
      chatError: "Telegram answered 403: Forbidden: bot was blocked by the user",
      tokenRefused: { status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } },
      tokenError: "Telegram answered 401: Unauthorized",
    });
  });

  it("a reply that renders to nothing fails saying so; a long one's empty last part is left out", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    await nothingToShow(
      owner,
      inbox,
      (text) => postUpdate(textUpdate(text)),
      () => sent(token, "sendMessage"),
    );
    const [conversation] = await conversationsOf(owner, inbox.inboxId);
    // Over Telegram's 4,096 characters, then a rule: the words go in one part, and the reply is sent.
    const content = `${"word ".repeat(779)}\n\n---`;
    expect((await owner.fetch("POST", "/messages/outgoing/", { conversation: conversation.id, content })).status).toBe(
      201,
    );
    await messagesWhen(owner, conversation.id, nthIs(4, "sent"));
    expect((await sent(token, "sendMessage")).at(-1)!.body.text).toBe("word ".repeat(779).trim());
  });

  it("a long reply whose second part is refused a while: that part is sent again, never the first", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    await postUpdate(textUpdate("Hello"));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, lastIs("sent"));
    expect((await owner.fetch("POST", `/conversations/${conversation.id}/take-over/`)).status).toBe(200);
    const chat = { id: 5551234, type: "private", first_name: "Olivia" };
    await telegram.script(token, [
      { status: 200, body: { ok: true, result: { message_id: 501, date: 0, chat, text: "first part" } } },
      TOO_MANY_REQUESTS,
    ]);
    // 5,000 characters, over Telegram's 4,096: two parts.
    const content = "Your parcel left our warehouse today. ".repeat(132);
    expect((await owner.fetch("POST", "/messages/outgoing/", { conversation: conversation.id, content })).status).toBe(
      201,
    );
    const messages = await messagesWhen(owner, conversation.id, nthIs(2, "sent"));
    const attempts = (await sent(token, "sendMessage")).slice(1).map((r) => r.body.text);
    expect(attempts).toHaveLength(3);
    expect(attempts[2]).toBe(attempts[1]);
    expect(attempts[0]).not.toBe(attempts[1]);
    const delivery = messages[2].metadata!.channelDelivery;
    expect(delivery).toMatchObject({ status: "sent", attempts: 2, platformMessageIds: ["501", expect.any(String)] });
    // The contract's one id: the reply's first message's.
    expect(delivery?.platformMessageId).toBe("501");
  });

  it("an agent's picture goes as a photo, another file as a document, after the text, by our copy's URL", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    await postUpdate(textUpdate("Can I see the label?"));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, lastIs("sent"));
    const attach = async (filename: string, bytes?: Uint8Array, type?: string) =>
      bodyOf<"POST /attachments/">(
        await owner.fetch("POST", "/attachments/", { file: await uploadKey(owner, filename, bytes, type), filename }),
      );
    const picture = await attach("label.png");
    const notes = await attach("notes.txt", new TextEncoder().encode("Handle with care"), "text/plain");
    const res = await owner.fetch("POST", "/messages/outgoing/", {
      conversation: conversation.id,
      content: "Here is the **label**.",
      attachments: [{ id: picture.id }, { id: notes.id }],
    });
    expect(res.status, await res.clone().text()).toBe(201);
    await messagesWhen(owner, conversation.id, nthIs(2, "sent"));
    const calls = (await telegram.requests(token)).filter((r) => /\/send(Message|Photo|Document)$/.test(r.path));
    expect(calls.slice(1).map((r) => r.path.split("/").pop())).toEqual(["sendMessage", "sendPhoto", "sendDocument"]);
    expect(calls[1].body.text).toBe("Here is the <b>label</b>.");
    const [photo, document] = calls.slice(2).map((r) => r.body as { photo?: string; document?: string });
    expect(photo.photo).toContain(`/uploads/${owner.organizationId}/`);
    expect(document.document).toContain(`/uploads/${owner.organizationId}/`);
  });

  it("an outage not answered in the Bot API's JSON: the reply is tried again and sent; connect names it", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    // What a gateway in front of Telegram answers while it is down: a 5xx with a body of its own, no error_code.
    const down: Scripted = { status: 503, body: { error: "Service Unavailable" } };
    await telegram.script(token, [{ status: 200, body: { ok: true, result: true } }, down]);
    await postUpdate(textUpdate("Are you up?"));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(owner, conversation.id, lastIs("sent"));
    expect(messages.at(-1)!.metadata!.channelDelivery).toMatchObject({ status: "sent", attempts: 2 });

    await telegram.script(token, [down]);
    await connectRefused(owner, inbox.inboxId, 'Telegram answered 503: {"error":"Service Unavailable"}');
  });

  it("a refused token fails connect with Telegram's answer", async () => {
    const owner = await seedOwner();
    const inbox = await channelInbox(owner, "telegram", { botToken: "123:revoked" }, { connect: false });
    await connectRefused(
      owner,
      inbox.inboxId,
      "Telegram answered 401: Unauthorized. Check botToken: copy it again from the platform, save, and connect again.",
    );
  });
});
