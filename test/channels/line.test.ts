// LINE end to end, against the Messaging API stand-in (test/support/platforms/line.mjs): webhook
// bodies shaped as LINE's reference shows them, signed by the stand-in with LINE's algorithm.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedOwner, unique, type Actor } from "../harness";
import {
  channelInbox,
  conversationsOf,
  eventually,
  messagesOf,
  messagesWhen,
  onlyConversation,
  post,
  standIn,
  type ChannelInbox,
} from "./support";
import { bodyOf } from "../support/api";

const line = standIn("line");
/** LINE answers webhooks at an https URL only (the stand-in refuses others as LINE does). */
const ORIGIN = "https://assistants.example.com";
const hex = (n: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(n / 2)), (b) => b.toString(16).padStart(2, "0")).join("");
const newUser = () => `U${hex(32)}`;

function credentials() {
  return {
    channelId: String(1_600_000_000 + Math.floor(Math.random() * 1e8)),
    channelSecret: hex(32),
    channelAccessToken: unique("line-token"),
  };
}

/** The inbox with its channel saved and connected from our https origin (its webhook URL's). */
async function lineInbox(owner: Actor, creds = credentials()): Promise<ChannelInbox> {
  const inbox = await channelInbox(owner, "line", creds, { connect: false });
  const asOwner = (method: string, path: string, body?: unknown) =>
    SELF.fetch(`${ORIGIN}/api/v1/inboxes/${inbox.inboxId}${path}`, {
      method,
      headers: { authorization: `Api-Key ${owner.key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  expect((await asOwner("PUT", "/channel/", creds)).status).toBe(200);
  const connected = await asOwner("POST", "/channel/connect/");
  expect(connected.status, await connected.clone().text()).toBe(200);
  return inbox;
}

let sequence = 0;
/** A message event as LINE's reference shows one
 * (https://developers.line.biz/en/reference/messaging-api/#message-event). */
function messageEvent(
  userId: string,
  message: Record<string, unknown>,
  source: Record<string, unknown> = { type: "user", userId },
) {
  const id = String(470000000000000000 + ++sequence * 1000 + Math.floor(Math.random() * 1000));
  return {
    type: "message",
    message: { id, ...message },
    webhookEventId: `01J${hex(22).toUpperCase()}`,
    deliveryContext: { isRedelivery: false },
    timestamp: Date.now(),
    source,
    replyToken: hex(32),
    mode: "active",
  };
}
const textEvent = (userId: string, text: string, source?: Record<string, unknown>) =>
  messageEvent(userId, { type: "text", quoteToken: `q${hex(16)}`, text }, source);
const signed = (channelSecret: string, ...events: unknown[]) =>
  line.sign({ channelSecret, body: { destination: `U${hex(32)}`, events } });
const sent = async (token: string, path: string) => (await line.requests(token)).filter((r) => r.path === path);

describe("LINE", () => {
  it("connects (bot info, webhook URL set), takes a text in and answers with the reply API", async () => {
    const owner = await seedOwner();
    const creds = credentials();
    const inbox = await lineInbox(owner, creds);
    const token = creds.channelAccessToken;
    const [endpoint] = (await line.requests(token)).filter((r) => r.method === "PUT");
    expect(endpoint).toMatchObject({
      path: "/v2/bot/channel/webhook/endpoint",
      body: { endpoint: `${ORIGIN}${inbox.path}` },
    });
    expect(endpoint.headers.authorization).toBe(`Bearer ${token}`);
    const channel = await bodyOf<"GET /inboxes/{id}/channel/">(
      await owner.fetch("GET", `/inboxes/${inbox.inboxId}/channel/`),
    );
    expect(channel).toMatchObject({ status: "connected", lastError: null });
    expect(JSON.stringify(channel)).not.toContain(token);
    expect(JSON.stringify(channel)).not.toContain(creds.channelSecret);

    const user = newUser();
    const event = textEvent(user, "Where is my parcel?");
    const res = await post(inbox.path, await signed(creds.channelSecret, event));
    expect(res.status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    expect(conversation).toMatchObject({ type: "individual", contact: { name: `User ${user.slice(-6)}` } });
    const messages = await messagesWhen(owner, conversation.id, (m) =>
      m.some((x) => x.metadata?.channelDelivery?.status === "sent"),
    );
    expect(messages.map((m) => [m.senderType, m.content])).toEqual([
      ["contact", "Where is my parcel?"],
      ["chatbot", 'You said: "Where is my parcel?".'],
    ]);
    expect(messages[0].metadata?.channel).toMatchObject({ type: "line", eventId: event.webhookEventId });
    const [reply] = await sent(token, "/v2/bot/message/reply");
    expect(reply.headers.authorization).toBe(`Bearer ${token}`);
    expect(reply.body).toEqual({
      replyToken: event.replyToken,
      messages: [{ type: "text", text: 'You said: "Where is my parcel?".' }],
    });
    const delivery = { status: "sent", attempts: 1, error: null, platformMessageIds: [expect.stringMatching(/^\d+$/)] };
    expect(messages[1].metadata?.channelDelivery).toMatchObject(delivery);
    // The loading animation showed while the assistant wrote.
    expect((await sent(token, "/v2/bot/chat/loading/start"))[0].body).toEqual({ chatId: user, loadingSeconds: 20 });
    const contact = await bodyOf<"GET /contacts/{id}/">(
      await owner.fetch("GET", `/contacts/${conversation.contact!.id}/`),
    );
    expect(contact).toMatchObject({ sourceId: user, avatar: `https://profile.line-scdn.net/${user}` });
  });

  it("the assistant's conversation starters go under its first answer as LINE quick replies", async () => {
    const owner = await seedOwner();
    const creds = credentials();
    const inbox = await lineInbox(owner, creds);
    // Starters are the assistant's web chat's: a web inbox of the same assistant holds them.
    const web = await owner.fetch("POST", "/inboxes/", {
      name: unique("web"),
      channelType: "web",
      chatbot: { id: inbox.chatbotId },
    });
    const chat = (await bodyOf<"POST /inboxes/">(web)).channel!;
    const starters = ["Opening hours?", "Where do you deliver in the Kanto region?"];
    expect(
      (await owner.fetch("PATCH", `/web-chats/${chat.id}/`, { displayConversationStarters: starters })).status,
    ).toBe(200);
    await post(inbox.path, await signed(creds.channelSecret, textEvent(newUser(), "Hello")));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.at(-1)?.metadata?.channelDelivery?.status === "sent");
    const [reply] = await sent(creds.channelAccessToken, "/v2/bot/message/reply");
    expect(reply.body.messages[0].quickReply).toEqual({
      items: [
        { type: "action", action: { type: "message", label: "Opening hours?", text: "Opening hours?" } },
        {
          type: "action",
          action: { type: "message", label: "Where do you deliver", text: "Where do you deliver in the Kanto region?" },
        },
      ],
    });
  });

  it("a redelivered event makes no second message; a wrong or missing signature is 401 and stores nothing", async () => {
    const owner = await seedOwner();
    const creds = credentials();
    const inbox = await lineInbox(owner, creds);
    const event = textEvent(newUser(), "Hello");
    expect((await post(inbox.path, await signed(creds.channelSecret, event))).status).toBe(200);
    // LINE's redelivery: the same webhookEventId, flagged as redelivered.
    const again = { ...event, deliveryContext: { isRedelivery: true } };
    expect((await post(inbox.path, await signed(creds.channelSecret, again))).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.length === 2);
    await new Promise((r) => setTimeout(r, 500));
    expect((await messagesOf(owner, conversation.id)).filter((m) => m.senderType === "contact")).toHaveLength(1);

    const forged = await signed("not-the-channel-secret", textEvent(newUser(), "forged"));
    expect((await post(inbox.path, forged)).status).toBe(401);
    const body = JSON.stringify({ destination: "U0", events: [textEvent(newUser(), "unsigned")] });
    const unsigned = { headers: { "content-type": "application/json" }, body };
    expect((await post(inbox.path, unsigned)).status).toBe(401);
    const rows = await env.DB.prepare("select count(*) as n from channel_events where inbox_id = ?")
      .bind(inbox.inboxId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
    // The console's "Verify" button: a signed body with no events, answered 200.
    expect((await post(inbox.path, await signed(creds.channelSecret))).status).toBe(200);
  });

  it(
    "an image is downloaded from LINE's data API into an attachment; a group's message opens a group " + "conversation",
    async () => {
      const owner = await seedOwner();
      const creds = credentials();
      const inbox = await lineInbox(owner, creds);
      const user = newUser();
      const image = messageEvent(user, { type: "image", quoteToken: `q${hex(16)}`, contentProvider: { type: "line" } });
      await post(inbox.path, await signed(creds.channelSecret, image));
      const conversation = await onlyConversation(owner, inbox.inboxId);
      const [incoming] = await messagesWhen(owner, conversation.id, (m) => m.length >= 1);
      expect(incoming).toMatchObject({
        senderType: "contact",
        attachments: [{ type: "image", contentType: "image/png" }],
      });
      const [download] = await sent(creds.channelAccessToken, `/v2/bot/message/${image.message.id}/content`);
      expect(download.headers.authorization).toBe(`Bearer ${creds.channelAccessToken}`);
      const png = await (
        await fetch(`${line.url}/v2/bot/message/1/content`, { headers: { authorization: "Bearer size-check" } })
      ).arrayBuffer();
      const attachment = await bodyOf<"GET /attachments/{id}/">(
        await owner.fetch("GET", `/attachments/${incoming.attachments![0].id}/`),
      );
      expect(attachment.size).toBe(png.byteLength);

      const group = `C${hex(32)}`;
      const member = newUser();
      await post(
        inbox.path,
        await signed(
          creds.channelSecret,
          textEvent(member, "Hi all", { type: "group", groupId: group, userId: member }),
        ),
      );
      const grouped = await eventually(async () =>
        (await conversationsOf(owner, inbox.inboxId)).find((c) => c.type === "group"),
      );
      expect(grouped.contact).toMatchObject({ name: `User ${member.slice(-6)}` });
      expect(grouped.title).toBe(`Group ${group.slice(-6)}`);
      const inGroup = await messagesWhen(
        owner,
        grouped.id,
        (m) => m.at(-1)?.metadata?.channelDelivery?.status === "sent",
      );
      expect(inGroup[0]).toMatchObject({ content: "Hi all" });
      // The member's profile by the group's endpoint (a member need not be the bot's friend); no loading animation in a
      // group.
      expect(await sent(creds.channelAccessToken, `/v2/bot/group/${group}/member/${member}`)).toHaveLength(1);
      expect((await sent(creds.channelAccessToken, "/v2/bot/chat/loading/start")).map((r) => r.body.chatId)).toEqual([
        user,
      ]);
    },
  );

  it(
    "after a takeover the assistant is silent and the person's replies are delivered as plain text (reply, then " +
      "push)",
    async () => {
      const owner = await seedOwner();
      const creds = credentials();
      const inbox = await lineInbox(owner, creds);
      const user = newUser();
      await post(inbox.path, await signed(creds.channelSecret, textEvent(user, "Hello")));
      const conversation = await onlyConversation(owner, inbox.inboxId);
      // Its answer out first: a reply still queued would take the next event's reply token.
      await messagesWhen(
        owner,
        conversation.id,
        (m) => m.length === 2 && m[1].metadata?.channelDelivery?.status === "sent",
      );
      expect((await owner.fetch("POST", `/conversations/${conversation.id}/take-over/`)).status).toBe(200);
      const question = textEvent(user, "Are you a bot?");
      await post(inbox.path, await signed(creds.channelSecret, question));
      await messagesWhen(owner, conversation.id, (m) => m.length === 3);
      // Taken in to the end (its reply token kept for the answer) before the person answers.
      const stored = env.DB.prepare("select status from channel_events where inbox_id = ? and event_id = ?").bind(
        inbox.inboxId,
        question.webhookEventId,
      );
      await eventually(async () => (await stored.first<{ status: string }>())?.status === "stored");
      const content = "Hi, this is **Sam** from [Acme](https://acme.example).";
      const agent = await owner.fetch("POST", "/messages/outgoing/", { conversation: conversation.id, content });
      expect(agent.status, await agent.clone().text()).toBe(201);
      await messagesWhen(owner, conversation.id, (m) => m.at(-1)?.metadata?.channelDelivery?.status === "sent");
      // The reply token went with the first answer to "Are you a bot?": a second one is pushed, with a retry key.
      expect(
        (
          await owner.fetch("POST", "/messages/outgoing/", {
            conversation: conversation.id,
            content: "Yes, a *person* now.",
          })
        ).status,
      ).toBe(201);
      const messages = await messagesWhen(
        owner,
        conversation.id,
        (m) => m.length === 5 && m[4].metadata?.channelDelivery?.status === "sent",
      );
      expect(messages.map((m) => m.senderType)).toEqual(["contact", "chatbot", "contact", "user", "user"]);
      const out = (await line.requests(creds.channelAccessToken)).filter((r) =>
        /^\/v2\/bot\/message\/(reply|push)$/.test(r.path),
      );
      expect(out.map((r) => [r.path, r.body.messages.map((m: { text: string }) => m.text)])).toEqual([
        ["/v2/bot/message/reply", ["Hello! How can I help you today?"]],
        ["/v2/bot/message/reply", ["Hi, this is Sam from Acme (https://acme.example)."]],
        ["/v2/bot/message/push", ["Yes, a person now."]],
      ]);
      expect(out[2].body.to).toBe(user);
      expect(out[2].headers["x-line-retry-key"]).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    },
  );

  it(
    "a 429 is tried again after its Retry-After and delivered once; a 400 is failed with LINE's words and not " +
      "tried again",
    async () => {
      const owner = await seedOwner();
      const creds = credentials();
      const token = creds.channelAccessToken;
      const inbox = await lineInbox(owner, creds);
      const user = newUser();
      await post(inbox.path, await signed(creds.channelSecret, textEvent(user, "Hello")));
      const conversation = await onlyConversation(owner, inbox.inboxId);
      await messagesWhen(owner, conversation.id, (m) => m.at(-1)?.metadata?.channelDelivery?.status === "sent");
      const before = (await line.requests(token)).length;

      // The contact is known now: the next requests are the loading animation, then the reply.
      await line.script(token, [
        { status: 202, body: {} },
        { status: 429, headers: { "retry-after": "1" }, body: { message: "Too many requests" } },
      ]);
      const started = Date.now();
      await post(inbox.path, await signed(creds.channelSecret, textEvent(user, "Are you there?")));
      const messages = await messagesWhen(
        owner,
        conversation.id,
        (m) => m.length === 4 && m[3].metadata?.channelDelivery?.status === "sent",
      );
      expect(messages[3].metadata!.channelDelivery).toMatchObject({ status: "sent", attempts: 2, error: null });
      const attempts = (await line.requests(token))
        .slice(before)
        .filter((r) => /^\/v2\/bot\/message\/(reply|push)$/.test(r.path));
      expect(attempts).toHaveLength(2);
      expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1000);
      expect(attempts[1].at - started).toBeLessThan(10_000);

      const refusal = {
        message: "The request body has 1 error(s)",
        details: [{ message: "May not be empty", property: "messages[0].text" }],
      };
      await line.script(token, [
        { status: 202, body: {} },
        { status: 400, body: refusal },
      ]);
      await post(inbox.path, await signed(creds.channelSecret, textEvent(user, "Again")));
      const failed = await messagesWhen(
        owner,
        conversation.id,
        (m) => m.length === 6 && m[5].metadata?.channelDelivery?.status === "failed",
      );
      const error = "LINE answered 400: The request body has 1 error(s) (messages[0].text: May not be empty)";
      expect(failed[5].metadata!.channelDelivery).toMatchObject({ status: "failed", attempts: 1, error });
      const count = (await line.requests(token)).length;
      await new Promise((r) => setTimeout(r, 1500));
      expect((await line.requests(token)).length).toBe(count);
    },
  );

  it("connect names LINE's refusal: a webhook URL that is not https, a revoked token", async () => {
    const owner = await seedOwner();
    // Saved from http://localhost (the test harness's origin): LINE takes https webhook URLs only.
    const local = await channelInbox(owner, "line", credentials(), { connect: false });
    const res = await owner.fetch("POST", `/inboxes/${local.inboxId}/channel/connect/`);
    expect(res.status).toBe(400);
    const detail = "LINE answered 400: The request body has 1 error(s) (endpoint: Invalid webhook endpoint URL)";
    expect(await res.json()).toMatchObject({ code: "channel_connect_failed", detail });
    expect(await (await owner.fetch("GET", `/inboxes/${local.inboxId}/channel/`)).json()).toMatchObject({
      status: "failing",
      lastError: detail,
    });

    const creds = credentials();
    const revoked = await channelInbox(owner, "line", creds, { connect: false });
    const unauthorized = {
      message: "Authentication failed. Confirm that the access token in the authorization header is valid.",
    };
    await line.script(creds.channelAccessToken, [{ status: 401, body: unauthorized }]);
    const refused = await owner.fetch("POST", `/inboxes/${revoked.inboxId}/channel/connect/`);
    expect(await refused.json()).toMatchObject({
      code: "channel_connect_failed",
      detail: expect.stringMatching(/^LINE answered 401: Authentication failed/),
    });
  });
});
