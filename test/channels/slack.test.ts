// Slack end to end, against the Web API stand-in (test/support/platforms/slack.mjs): events signed
// by the stand-in as Slack signs them, posted to our webhook; replies read from what the stand-in got.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedOwner, unique } from "../harness";
import { createInbox } from "../routes/inboxes/fixtures";
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

const slack = standIn("slack");
const SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const newToken = () => `xoxb-${unique("bot").replace(/[^A-Za-z0-9-]/g, "")}`;
const credentials = (botToken: string) => ({ botToken, signingSecret: SIGNING_SECRET });

let clock = Math.floor(Date.now() / 1000) * 1_000_000;
/** A message's ts as Slack writes it: epoch seconds, a dot, six digits; each one new. */
const nextTs = () => {
  clock += 1;
  return `${Math.floor(clock / 1_000_000)}.${String(clock % 1_000_000).padStart(6, "0")}`;
};

/** Slack's Events API envelope (docs.slack.dev, message.im) around `event`. */
const envelope = (event: Record<string, unknown>) => ({
  token: "one-long-verification-token",
  team_id: "T061EG9R6",
  api_app_id: "A0PNCHHK2",
  event,
  type: "event_callback",
  authorizations: [
    { enterprise_id: null, team_id: "T061EG9R6", user_id: "U0BOTU5ER", is_bot: true, is_enterprise_install: false },
  ],
  event_id: `Ev${unique("")
    .replace(/[^A-Za-z0-9]/g, "")
    .toUpperCase()}`,
  event_time: Math.floor(Date.now() / 1000),
});
/** A direct message from Egon Spengler (Slack's example user) to the app. */
const dm = (text: string, extra: Record<string, unknown> = {}) => {
  const ts = nextTs();
  return envelope({
    type: "message",
    channel: "D024BE91L",
    user: "U2147483697",
    text,
    ts,
    event_ts: ts,
    channel_type: "im",
    ...extra,
  });
};
const signed = (body: unknown, extra: Record<string, unknown> = {}) =>
  slack.sign({ signingSecret: SIGNING_SECRET, body, ...extra });
const posted = async (token: string) => (await slack.requests(token)).filter((r) => r.path === "/api/chat.postMessage");

describe("Slack", () => {
  it("connects (auth.test), answers the url_verification challenge, takes a DM in and sends the reply out", async () => {
    const owner = await seedOwner();
    const token = newToken();
    const inbox = await channelInbox(owner, "slack", credentials(token));
    const [check] = await slack.requests(token);
    expect(check).toMatchObject({
      method: "POST",
      path: "/api/auth.test",
      headers: { authorization: `Bearer ${token}` },
    });
    const channel = await bodyOf<"GET /inboxes/{id}/channel/">(
      await owner.fetch("GET", `/inboxes/${inbox.inboxId}/channel/`),
    );
    expect(channel).toMatchObject({
      status: "connected",
      lastError: null,
      webhookUrl: expect.stringMatching(new RegExp(`${inbox.path}$`)),
    });
    expect(JSON.stringify(channel)).not.toContain(token);
    expect(JSON.stringify(channel)).not.toContain(SIGNING_SECRET);

    const challenge = "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P";
    const handshake = await post(
      inbox.path,
      await signed({ token: "Jhj5dZrVaK7ZwHHjRyZWjbDl", challenge, type: "url_verification" }),
    );
    expect(handshake.status).toBe(200);
    expect(await handshake.json()).toEqual({ challenge });

    const event = dm("Where is my *parcel*?");
    expect((await post(inbox.path, await signed(event))).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    expect(conversation).toMatchObject({ type: "individual", contact: { name: "spengler" } });
    const messages = await messagesWhen(owner, conversation.id, (m) =>
      m.some((x) => x.metadata?.channelDelivery?.status === "sent"),
    );
    expect(messages.map((m) => [m.senderType, m.content])).toEqual([
      ["contact", "Where is my *parcel*?"],
      ["chatbot", 'You said: "Where is my *parcel*?".'],
    ]);
    expect(messages[0].metadata?.channel).toMatchObject({ type: "slack", eventId: `D024BE91L:${event.event.ts}` });
    const [reply] = await posted(token);
    expect(reply.headers).toMatchObject({
      authorization: `Bearer ${token}`,
      "content-type": expect.stringMatching(/^application\/json/),
    });
    // Markdown's *emphasis* is Slack's _italic_.
    expect(reply.body).toEqual({
      channel: "D024BE91L",
      text: 'You said: "Where is my _parcel_?".',
      unfurl_links: false,
    });
    const delivery = messages[1].metadata?.channelDelivery;
    expect(delivery).toMatchObject({
      status: "sent",
      attempts: 1,
      error: null,
      platformMessageIds: [expect.stringMatching(/^\d+\.\d{6}$/)],
    });
    const contact = await bodyOf<"GET /contacts/{id}/">(
      await owner.fetch("GET", `/contacts/${conversation.contact!.id}/`),
    );
    expect(contact).toMatchObject({
      sourceId: "U2147483697",
      avatar: "https://avatars.slack-edge.com/2026-01-01/U2147483697_72.png",
    });
  });

  it(
    "a redelivery (X-Slack-Retry-Num) and the app_mention of a message make no second message; a bad signature " +
      "is 401 and stores nothing",
    async () => {
      const owner = await seedOwner();
      const token = newToken();
      const inbox = await channelInbox(owner, "slack", credentials(token));
      const ts = nextTs();
      const inChannel = { channel: "C024BE91L", user: "U2147483697", text: "<@U0BOTU5ER> hello", ts, event_ts: ts };
      const message = envelope({ type: "message", ...inChannel, channel_type: "channel" });
      expect((await post(inbox.path, await signed(message))).status).toBe(200);
      // Slack tries again (no answer within 3 s, it says) with the same event_id and a new signature.
      expect((await post(inbox.path, await signed(message, { retryNum: 1, retryReason: "http_timeout" }))).status).toBe(
        200,
      );
      const mention = envelope({ type: "app_mention", ...inChannel });
      expect((await post(inbox.path, await signed(mention))).status).toBe(200);
      const conversation = await onlyConversation(owner, inbox.inboxId);
      expect(conversation.type).toBe("group");
      expect(conversation.title).toBe("#channel-e91l");
      await messagesWhen(owner, conversation.id, (m) => m.length === 2);
      await new Promise((r) => setTimeout(r, 500));
      const contactMessages = (await messagesOf(owner, conversation.id)).filter((m) => m.senderType === "contact");
      expect(contactMessages.map((m) => m.content)).toEqual(["hello"]);
      // In a channel the reply goes to the message's thread.
      expect((await eventually(async () => (await posted(token))[0])).body).toMatchObject({
        channel: "C024BE91L",
        thread_ts: ts,
      });

      const forged = await slack.sign({ signingSecret: "not-the-signing-secret", body: dm("forged") });
      expect((await post(inbox.path, forged)).status).toBe(401);
      const stale = await signed(dm("replayed"), { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
      expect((await post(inbox.path, stale)).status).toBe(401);
      const unsigned = await post(inbox.path, {
        headers: { "content-type": "application/json" },
        body: JSON.stringify(dm("unsigned")),
      });
      expect(unsigned.status).toBe(401);
      const rows = await env.DB.prepare("select count(*) as n from channel_events where inbox_id = ?")
        .bind(inbox.inboxId)
        .first<{ n: number }>();
      expect(rows?.n).toBe(1);
    },
  );

  it("a shared image is downloaded with the bot token into an attachment", async () => {
    const owner = await seedOwner();
    const token = newToken();
    const inbox = await channelInbox(owner, "slack", credentials(token));
    const download = `${slack.url}/files-pri/T061EG9R6-F0RDC39U1/download/ghostrap.png`;
    // docs.slack.dev's file_share example, its URLs on the stand-in.
    const file = {
      id: "F0RDC39U1",
      name: "ghostrap.png",
      title: "ghostrap.png",
      mimetype: "image/png",
      filetype: "png",
      size: 70,
      mode: "hosted",
      url_private: download,
      url_private_download: download,
    };
    await post(
      inbox.path,
      await signed(dm("We got one!", { subtype: "file_share", files: [file], upload: true, display_as_bot: false })),
    );
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const [incoming] = await messagesWhen(owner, conversation.id, (m) => m.length >= 1);
    expect(incoming).toMatchObject({
      content: "We got one!",
      attachments: [{ type: "image", contentType: "image/png", filename: "ghostrap.png" }],
    });
    const fetched = (await slack.requests(token)).find((r) => r.path.startsWith("/files-pri/"));
    expect(fetched).toMatchObject({ method: "GET", headers: { authorization: `Bearer ${token}` } });
    const attachment = await bodyOf<"GET /attachments/{id}/">(
      await owner.fetch("GET", `/attachments/${incoming.attachments![0].id}/`),
    );
    expect(attachment.size).toBe(70); // the stand-in's PNG
  });

  it(
    "the first reply carries the assistant's conversation starters as buttons; a tap is the visitor's next " +
      "message",
    async () => {
      const owner = await seedOwner();
      const token = newToken();
      const inbox = await channelInbox(owner, "slack", credentials(token));
      const web = await createInbox(owner, { chatbot: { id: inbox.chatbotId } });
      const starters = await owner.fetch("PATCH", `/web-chats/${web.channel!.id}/`, {
        displayConversationStarters: ["Opening hours?", "Prices?"],
      });
      expect(starters.status, await starters.clone().text()).toBe(200);
      await post(inbox.path, await signed(dm("Hi")));
      const conversation = await onlyConversation(owner, inbox.inboxId);
      const answered = await messagesWhen(
        owner,
        conversation.id,
        (m) => m.at(-1)?.metadata?.channelDelivery?.status === "sent",
      );
      const [first] = await posted(token);
      expect(first.body.blocks[1].elements.map((b: { value: string }) => b.value)).toEqual([
        "Opening hours?",
        "Prices?",
      ]);

      const payload = {
        type: "block_actions",
        user: { id: "U2147483697", username: "spengler", team_id: "T061EG9R6" },
        team: { id: "T061EG9R6", domain: "ghostbusters" },
        container: {
          type: "message",
          message_ts: answered[1].metadata!.channelDelivery!.platformMessageIds[0],
          channel_id: "D024BE91L",
          is_ephemeral: false,
        },
        channel: { id: "D024BE91L", name: "directmessage" },
        trigger_id: "12321423423.333649436676.d8c1bb837935619ccad0f624c448ffb3",
        actions: [
          {
            type: "button",
            action_id: "quick_reply_1",
            block_id: "b",
            text: { type: "plain_text", text: "Prices?" },
            value: "Prices?",
            action_ts: nextTs(),
          },
        ],
      };
      expect((await post(inbox.path, await slack.sign({ signingSecret: SIGNING_SECRET, payload }))).status).toBe(200);
      const messages = await messagesWhen(
        owner,
        conversation.id,
        (m) => m.length === 4 && m[3].metadata?.channelDelivery?.status === "sent",
      );
      expect(messages.map((m) => [m.senderType, m.content])).toEqual([
        ["contact", "Hi"],
        ["chatbot", expect.any(String)],
        ["contact", "Prices?"],
        ["chatbot", 'You said: "Prices?".'],
      ]);
    },
  );

  it("after a takeover the assistant is silent and the person's reply is delivered", async () => {
    const owner = await seedOwner();
    const token = newToken();
    const inbox = await channelInbox(owner, "slack", credentials(token));
    await post(inbox.path, await signed(dm("Hello")));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.length === 2);
    expect((await owner.fetch("POST", `/conversations/${conversation.id}/take-over/`)).status).toBe(200);
    await post(inbox.path, await signed(dm("Are you a bot?")));
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
    expect((await posted(token)).map((r) => r.body.text)).toEqual([
      "Hello! How can I help you today?",
      "Hi, this is *Sam* from Acme.",
    ]);
  });

  it('resolve posts the rating question; the answer "4" is kept as the rating, not as a message', async () => {
    const owner = await seedOwner();
    const token = newToken();
    const inbox = await channelInbox(owner, "slack", credentials(token));
    await post(inbox.path, await signed(dm("Hello")));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.at(-1)?.metadata?.channelDelivery?.status === "sent");
    expect((await owner.fetch("POST", `/conversations/${conversation.id}/resolve/`)).status).toBe(200);
    const question = /How would you rate this conversation\?/;
    await eventually(async () => (await posted(token)).find((r) => question.test(JSON.stringify(r.body))));
    const asked = await messagesOf(owner, conversation.id);
    expect(asked.at(-1)).toMatchObject({ senderType: "chatbot", content: expect.stringMatching(question) });

    await post(inbox.path, await signed(dm("4")));
    const rated = await eventually(async () => {
      const record = await (await owner.fetch("GET", `/conversations/${conversation.id}/`)).json();
      return (record as { csat: { rating: number } | null }).csat;
    });
    expect(rated).toMatchObject({ rating: 4 });
    expect(await messagesOf(owner, conversation.id)).toHaveLength(asked.length);
  });

  it(
    "a 429 is tried again after its Retry-After and delivered once; ok:false channel_not_found is failed with " +
      "Slack's words and not tried again",
    async () => {
      const owner = await seedOwner();
      const token = newToken();
      const inbox = await channelInbox(owner, "slack", credentials(token));
      // The first exchange makes the contact (users.info), so what follows calls chat.postMessage only.
      await post(inbox.path, await signed(dm("Hello")));
      const conversation = await onlyConversation(owner, inbox.inboxId);
      await messagesWhen(
        owner,
        conversation.id,
        (m) => m.length === 2 && m[1].metadata?.channelDelivery?.status === "sent",
      );

      await slack.script(token, [
        { status: 429, headers: { "retry-after": "1" }, body: { ok: false, error: "ratelimited" } },
      ]);
      await post(inbox.path, await signed(dm("Again")));
      const messages = await messagesWhen(
        owner,
        conversation.id,
        (m) => m.length === 4 && m[3].metadata?.channelDelivery?.status === "sent",
      );
      expect(messages[3].metadata!.channelDelivery).toMatchObject({ status: "sent", attempts: 2, error: null });
      const attempts = (await posted(token)).slice(1);
      expect(attempts).toHaveLength(2);
      expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1000);

      // Slack refuses with HTTP 200 and ok: false.
      await slack.script(token, [{ status: 200, body: { ok: false, error: "channel_not_found" } }]);
      await post(inbox.path, await signed(dm("Once more")));
      const failed = await messagesWhen(
        owner,
        conversation.id,
        (m) => m.length === 6 && m[5].metadata?.channelDelivery?.status === "failed",
      );
      expect(failed[5].metadata!.channelDelivery).toMatchObject({
        status: "failed",
        attempts: 1,
        error: "Slack answered channel_not_found",
      });
      await new Promise((r) => setTimeout(r, 1500));
      expect(await posted(token)).toHaveLength(4);
    },
  );

  it("a refused token fails connect with Slack's error code", async () => {
    const owner = await seedOwner();
    const inbox = await channelInbox(owner, "slack", credentials("revoked-token"), { connect: false });
    const res = await owner.fetch("POST", `/inboxes/${inbox.inboxId}/channel/connect/`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "channel_connect_failed", detail: "Slack answered invalid_auth" });
    const channel = await (await owner.fetch("GET", `/inboxes/${inbox.inboxId}/channel/`)).json();
    expect(channel).toMatchObject({ status: "failing", lastError: "Slack answered invalid_auth" });
    expect(await conversationsOf(owner, inbox.inboxId)).toEqual([]);
  });
});
