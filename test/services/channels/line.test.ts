// The LINE module against LINE's documented shapes and the LINE stand-in (test/support/platforms/line.mjs):
// signatures made by the stand-in with LINE's algorithm, webhook bodies in the shapes of LINE's reference.
import { describe, expect, it } from "vitest";
import { thrownBy } from "../../support/errors";
import { env } from "cloudflare:workers";
import { ApiError } from "../../../src/lib/errors";
import { platformContext } from "../../../src/services/channels/http";
import { line, lineMessages, quickReply, retryKey, TEXT_LIMIT } from "../../../src/services/channels/line";
import { PlatformError, type ChannelConfig, type OutboundMessage } from "../../../src/services/channels/types";
import { outboundMessage } from "./outbound";
import { unique } from "../../harness";
import type { LineBody, RecordedRequest } from "../../support/platforms/recorded";

const STAND_IN: string = JSON.parse(env.TEST_PLATFORM_URLS).line;
const SECRET = "8c570fa6dd201bb328f1c1eac23a96d8";
const USER = "U4af4980629a1b2c3d4e5f60718293a4b";
const GROUP = "Ca56f94637cc4347f90a25382909b24b9";
const ROOM = "Ra8dbf4673c4c812cd491258042226c99";

const requests = async (key: string) =>
  (await fetch(`${STAND_IN}/__requests?key=${encodeURIComponent(key)}`)).json<RecordedRequest<LineBody>[]>();
const control = (path: string, body: unknown) =>
  fetch(`${STAND_IN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const script = (key: string, responses: unknown[]) => control("/__script", { key, responses });
/** The stand-in signs the way LINE does (never our own code). */
const sign = async (channelSecret: string, body: unknown) =>
  (await control("/__sign", { channelSecret, body })).json<{ headers: Record<string, string>; body: string }>();

function channel(
  token = unique("line-token"),
  webhookUrl = "https://bots.example.com/channels/line/inbox-1",
): ChannelConfig {
  return {
    inboxId: "inbox-1",
    organizationId: "org-1",
    platform: "line",
    credentials: { channelId: "1656000000", channelSecret: SECRET, channelAccessToken: token },
    verifyToken: "",
    webhookSecret: "",
    webhookUrl,
  };
}
const contextOf = (c: ChannelConfig) => platformContext(env, c);

/** A message event in the form LINE's reference shows
 * (https://developers.line.biz/en/reference/messaging-api/#message-event). */
function messageEvent(
  message: Record<string, unknown>,
  source: Record<string, unknown> = { type: "user", userId: USER },
  extra: Record<string, unknown> = {},
) {
  return {
    replyToken: "nHuyWiB7yP5Zw52FIkcQobQuGDXCTA",
    type: "message",
    mode: "active",
    timestamp: 1462629479859,
    source,
    webhookEventId: `01FZ74A0TDDPYRVKNK77XKC3Z${Math.random().toString(36).slice(2, 4).toUpperCase()}`,
    deliveryContext: { isRedelivery: false },
    message,
    ...extra,
  };
}
const callback = (...events: unknown[]) => ({ destination: "xxxxxxxxxx", events });
const text = (t: string) => ({ id: "444573844083572737", type: "text", quoteToken: "q3Plxr4AgKd...", text: t });

const outbound = (over: Partial<OutboundMessage> = {}) =>
  outboundMessage({ deliveryId: unique("delivery"), threadKey: USER, text: "Hello", ...over });

describe("LINE: verify (X-Line-Signature)", () => {
  const request = (headers: Record<string, string>) =>
    new Request("https://bots.example.com/channels/line/inbox-1", { method: "POST", headers });

  it("accepts LINE's signature of the raw body; refuses a changed body, another secret, none or garbage", async () => {
    const signed = await sign(SECRET, callback(messageEvent(text("Hello, world 👋 こんにちは"))));
    expect(await line.verify(request(signed.headers), signed.body, channel())).toBe(true);
    expect(await line.verify(request(signed.headers), signed.body.replace("Hello", "Hallo"), channel())).toBe(false);
    const other = { ...channel(), credentials: { ...channel().credentials, channelSecret: "another-secret" } };
    expect(await line.verify(request(signed.headers), signed.body, other)).toBe(false);
    expect(await line.verify(request({ "content-type": "application/json" }), signed.body, channel())).toBe(false);
    expect(await line.verify(request({ "x-line-signature": "%%% not base64 %%%" }), signed.body, channel())).toBe(
      false,
    );
  });

  it(
    "accepts the empty events array LINE sends when the console's Verify button is pressed, which carries no " +
      "event",
    async () => {
      const signed = await sign(SECRET, { destination: "Uxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", events: [] });
      expect(await line.verify(request(signed.headers), signed.body, channel())).toBe(true);
      expect(line.parse(signed.body, channel())).toEqual([]);
    },
  );
});

describe("LINE: parse", () => {
  it("a text in a one-on-one chat: LINE's webhookEventId, the user as sender and chat, reply token, time", () => {
    const event = messageEvent(text("Where is my order?"));
    const [parsed, ...rest] = line.parse(JSON.stringify(callback(event)), channel());
    expect(rest).toEqual([]);
    expect(parsed).toEqual({
      eventId: event.webhookEventId,
      threadKey: USER,
      sender: { id: USER },
      text: "Where is my order?",
      attachments: [],
      replyToken: "nHuyWiB7yP5Zw52FIkcQobQuGDXCTA",
      at: 1462629479859,
    });
  });

  it("a group's and a room's message: the chat is the group's or room's, the sender the member", () => {
    const body = callback(
      messageEvent(text("@All Good Morning!!"), { type: "group", groupId: GROUP, userId: USER }),
      messageEvent(text("hi"), { type: "room", roomId: ROOM, userId: USER }),
    );
    const [inGroup, inRoom] = line.parse(JSON.stringify(body), channel());
    expect(inGroup).toMatchObject({
      threadKey: GROUP,
      group: { id: GROUP },
      sender: { id: USER },
      text: "@All Good Morning!!",
    });
    expect(inRoom).toMatchObject({ threadKey: ROOM, group: { id: ROOM }, sender: { id: USER } });
  });

  it(
    "images, videos, audio and files are attachments by message id (a shared image by its URL); stickers and " +
      "locations are text",
    () => {
      const events = line.parse(
        JSON.stringify(
          callback(
            messageEvent({
              id: "354718705033693859",
              type: "image",
              contentProvider: { type: "line" },
              imageSet: { id: "E005D41A", index: 1, total: 2 },
            }),
            messageEvent({
              id: "354718705033693861",
              type: "image",
              quoteToken: "q",
              contentProvider: {
                type: "external",
                originalContentUrl: "https://example.com/original.jpg",
                previewImageUrl: "https://example.com/preview.jpg",
              },
            }),
            messageEvent({
              id: "325708",
              type: "video",
              quoteToken: "q",
              duration: 60000,
              contentProvider: { type: "line" },
            }),
            messageEvent({ id: "325709", type: "audio", duration: 60000, contentProvider: { type: "line" } }),
            messageEvent({ id: "325710", type: "file", fileName: "invoice.pdf", fileSize: 2138 }),
            messageEvent({
              id: "325711",
              type: "sticker",
              packageId: "1",
              stickerId: "1",
              stickerResourceType: "STATIC",
              keywords: ["Happy", "Smile", "Yay"],
            }),
            messageEvent({
              id: "325712",
              type: "sticker",
              packageId: "789",
              stickerId: "10855",
              stickerResourceType: "MESSAGE",
              text: "Thank you!",
            }),
            messageEvent({
              id: "325713",
              type: "sticker",
              quoteToken: "q",
              packageId: "1",
              stickerId: "2",
              stickerResourceType: "STATIC",
            }),
            messageEvent({
              id: "325714",
              type: "location",
              title: "my location",
              address: "1-3 Kioicho, Chiyoda-ku, Tokyo",
              latitude: 35.67966,
              longitude: 139.73669,
            }),
          ),
        ),
        channel(),
      );
      expect(events.map((e) => [e.text, e.attachments])).toEqual([
        ["", [{ kind: "image", ref: "354718705033693859" }]],
        ["", [{ kind: "image", ref: "https://example.com/original.jpg" }]],
        ["", [{ kind: "video", ref: "325708" }]],
        ["", [{ kind: "audio", ref: "325709" }]],
        ["", [{ kind: "file", ref: "325710", filename: "invoice.pdf" }]],
        ["[sticker: Happy, Smile, Yay]", []],
        ["Thank you!", []],
        ["[sticker]", []],
        ["[location] my location, 1-3 Kioicho, Chiyoda-ku, Tokyo (35.67966, 139.73669)", []],
      ]);
    },
  );

  it("follow, unfollow, join, unsend and standby-mode events are no messages; a postback is its data", () => {
    const source = { type: "user", userId: USER };
    const base = {
      mode: "active",
      timestamp: 1462629479859,
      source,
      webhookEventId: "01FZ74A0TDDPYRVKNK77XKC3ZR",
      deliveryContext: { isRedelivery: false },
    };
    const body = callback(
      { ...base, type: "follow", replyToken: "85cbe770fa8b4f45bbe077b1d4be4a36", follow: { isUnblocked: false } },
      { ...base, type: "unfollow" },
      {
        ...base,
        type: "join",
        replyToken: "0f3779fba3b349968c5d07db31eab56f",
        source: { type: "group", groupId: GROUP },
      },
      {
        ...base,
        type: "postback",
        replyToken: "b60d432864f44d079f6d8efe86cf404b",
        postback: { data: "action=buy&itemid=111" },
      },
      { ...base, type: "unsend", unsend: { messageId: "325708" } },
      {
        ...base,
        type: "videoPlayComplete",
        replyToken: "nHuyWiB7yP5Zw52FIkcQobQuGDXCTA",
        videoPlayComplete: { trackingId: "track-id" },
      },
      messageEvent(text("while another channel is active"), undefined, { mode: "standby", replyToken: undefined }),
      { type: "somethingLineAddsLater", timestamp: 1 },
    );
    expect(line.parse(JSON.stringify(body), channel())).toEqual([
      expect.objectContaining({
        text: "[postback] action=buy&itemid=111",
        replyToken: "b60d432864f44d079f6d8efe86cf404b",
      }),
    ]);
  });

  it("a body that is not LINE's is a 400", () => {
    for (const raw of ["not json", "{}", JSON.stringify({ destination: "U1", events: "none" })]) {
      expect(() => line.parse(raw, channel())).toThrow(ApiError);
    }
    expect(thrownBy(() => line.parse("not json", channel()), ApiError).status).toBe(400);
  });
});

describe("LINE: rendering and limits", () => {
  it("Markdown as plain text with links written out, sources after the reply", () => {
    const markdown =
      "## Returns\n**Free** returns within *30 days*: see [the policy](https://shop.example/returns).\n- keep " +
      "the receipt";
    const [message, ...rest] = lineMessages(
      outbound({ text: markdown, citations: [{ title: "Returns FAQ", url: "https://shop.example/faq" }] }),
    );
    expect(rest).toEqual([]);
    expect(message).toEqual({
      type: "text",
      text: [
        "Returns",
        "Free returns within 30 days: see the policy (https://shop.example/returns).",
        "• keep the receipt",
        "",
        "• Returns FAQ (https://shop.example/faq)",
      ].join("\n"),
    });
  });

  it("a long reply is split at 5000 characters, between paragraphs, and nothing is lost", () => {
    // 1679 characters: two fit in a message, three do not.
    const paragraph = "Lorem ipsum dolor sit amet. ".repeat(60).trim();
    const reply = Array.from({ length: 7 }, (_, i) => `${i}: ${paragraph}`).join("\n\n");
    const parts = lineMessages(outbound({ text: reply }));
    expect(parts.length).toBe(4);
    for (const p of parts) expect(p.type === "text" && p.text.length).toBeLessThanOrEqual(TEXT_LIMIT);
    expect(parts.map((p) => (p.type === "text" ? p.text : "")).join("\n\n")).toBe(reply);
  });

  it("an agent's image goes as an image message, another file as a link", () => {
    const messages = lineMessages(
      outbound({
        text: "Here you are",
        attachments: [
          { url: "https://files.example/photo.png", filename: "photo.png", contentType: "image/png" },
          { url: "https://files.example/manual.pdf", filename: "manual.pdf", contentType: "application/pdf" },
        ],
      }),
    );
    expect(messages).toEqual([
      { type: "text", text: "Here you are\n\n• manual.pdf (https://files.example/manual.pdf)" },
      {
        type: "image",
        originalContentUrl: "https://files.example/photo.png",
        previewImageUrl: "https://files.example/photo.png",
      },
    ]);
  });

  it("quick replies: at most 13, labels cut at 20 characters, the full text sent", () => {
    const options = Array.from({ length: 15 }, (_, i) => `Option number ${i} with a long tail`);
    const quick = quickReply(options)!;
    expect(quick.items).toHaveLength(13);
    expect(quick.items[0]).toEqual({
      type: "action",
      action: { type: "message", label: "Option number 0 with", text: "Option number 0 with a long tail" },
    });
    expect(quickReply(["", "  "])).toBeUndefined();
  });

  it("the retry key is a UUID, the same for every try of a delivery's request and another for another", async () => {
    const message = outbound();
    const key = await retryKey(message, 0);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await retryKey({ ...message, text: "the same delivery" }, 0)).toBe(key);
    expect(await retryKey(message, 1)).not.toBe(key);
    // The same words sent again later are another delivery: LINE must not take them for a retry.
    expect(await retryKey({ ...message, deliveryId: unique("delivery") }, 0)).not.toBe(key);
  });
});

describe("LINE: calls to the platform (stand-in)", () => {
  it("send pushes with the bearer token and a retry key; a second try of one message is not sent twice", async () => {
    const c = channel();
    const message = outbound({ text: "Your order **shipped**.", quickReplies: ["Track it", "Talk to a person"] });
    const ids = await line.send(contextOf(c), message);
    expect(ids).toHaveLength(1);
    const [push] = await requests(c.credentials.channelAccessToken);
    expect(push).toMatchObject({ method: "POST", path: "/v2/bot/message/push" });
    expect(push.headers.authorization).toBe(`Bearer ${c.credentials.channelAccessToken}`);
    expect(push.headers["x-line-retry-key"]).toBe(await retryKey(message, 0));
    expect(push.body).toEqual({
      to: USER,
      messages: [
        {
          type: "text",
          text: "Your order shipped.",
          quickReply: {
            items: [
              { type: "action", action: { type: "message", label: "Track it", text: "Track it" } },
              { type: "action", action: { type: "message", label: "Talk to a person", text: "Talk to a person" } },
            ],
          },
        },
      ],
    });
    // The queue tries again (its answer lost): LINE answers 409 with what it sent the first time.
    expect(await line.send(contextOf(c), message)).toEqual(ids);
  });

  it("more than five parts go in several requests of at most five", async () => {
    const c = channel();
    const reply = Array.from({ length: 6 }, (_, i) => `${i} ${"word ".repeat(900)}`).join("\n\n");
    const ids = await line.send(contextOf(c), outbound({ text: reply }));
    expect(ids).toHaveLength(6);
    const pushes = await requests(c.credentials.channelAccessToken);
    expect(pushes.map((r) => r.body.messages!.length)).toEqual([5, 1]);
    expect(new Set(pushes.map((r) => r.headers["x-line-retry-key"])).size).toBe(2);
  });

  it("a second request refused: the refusal names what went; the next try sends the rest alone", async () => {
    const c = channel();
    const token = c.credentials.channelAccessToken;
    const message = outbound({ text: Array.from({ length: 6 }, (_, i) => `${i} ${"word ".repeat(900)}`).join("\n\n") });
    await script(token, [{ status: 200, body: { sentMessages: [1, 2, 3, 4, 5].map((n) => ({ id: `${n}` })) } }]);
    await script(token, [{ status: 429, headers: { "retry-after": "1" }, body: { message: "Too many requests" } }]);
    const refused = await line.send(contextOf(c), message).catch((err: PlatformError) => err);
    expect(refused).toBeInstanceOf(PlatformError);
    expect((refused as PlatformError).sent).toEqual(["1", "2", "3", "4", "5"]);
    const ids = await line.send(contextOf(c), { ...message, sent: (refused as PlatformError).sent! });
    expect(ids).toEqual(["1", "2", "3", "4", "5", expect.any(String)]);
    const pushes = await requests(token);
    expect(pushes.map((r) => r.body.messages!.length)).toEqual([5, 1, 1]);
    // The second request keeps its retry key on every try.
    expect(pushes[2].headers["x-line-retry-key"]).toBe(pushes[1].headers["x-line-retry-key"]);
  });

  it("a fresh reply token answers by the reply API; a used one falls back to push", async () => {
    const c = channel();
    const token = unique("reply-token");
    const first = await line.send(contextOf(c), outbound({ replyToken: token }));
    const second = await line.send(contextOf(c), outbound({ replyToken: token, text: "Again" }));
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(1);
    const sent = await requests(c.credentials.channelAccessToken);
    expect(sent.map((r) => r.path)).toEqual(["/v2/bot/message/reply", "/v2/bot/message/reply", "/v2/bot/message/push"]);
    expect(sent[0].body).toEqual({ replyToken: token, messages: [{ type: "text", text: "Hello" }] });
    expect(sent[0].headers["x-line-retry-key"]).toBeUndefined(); // LINE refuses a retry key on replies
  });

  it("LINE's 400 is a PlatformError with LINE's words, not retried; its 429 is retried after Retry-After", async () => {
    const c = channel();
    await script(c.credentials.channelAccessToken, [
      {
        status: 400,
        body: {
          message: "The request body has 1 error(s)",
          details: [{ message: "May not be empty", property: "messages[0].text" }],
        },
      },
      { status: 429, headers: { "retry-after": "7" }, body: { message: "You have reached your monthly limit." } },
    ]);
    const refused = await line.send(contextOf(c), outbound()).catch((e) => e);
    expect(refused).toBeInstanceOf(PlatformError);
    expect(refused.message).toBe(
      "LINE answered 400: The request body has 1 error(s) (messages[0].text: May not be empty)",
    );
    expect(refused.retryable).toBe(false);
    const limited = await line.send(contextOf(c), outbound()).catch((e) => e);
    expect(limited).toMatchObject({
      status: 429,
      retryAfterSeconds: 7,
      message: "LINE answered 429: You have reached your monthly limit.",
    });
    expect(limited.retryable).toBe(true);
  });

  it("profile: a user's own, a group member's and a room member's; none when LINE keeps it", async () => {
    const c = channel();
    const ctx = contextOf(c);
    const base = { eventId: "e", text: "", attachments: [] };
    const own = await line.profile!(ctx, { ...base, threadKey: USER, sender: { id: USER } });
    expect(own).toEqual({ name: "User 293a4b", avatar: `https://profile.line-scdn.net/${USER}` });
    await line.profile!(ctx, { ...base, threadKey: GROUP, group: { id: GROUP }, sender: { id: USER } });
    await line.profile!(ctx, { ...base, threadKey: ROOM, group: { id: ROOM }, sender: { id: USER } });
    expect((await requests(c.credentials.channelAccessToken)).map((r) => r.path)).toEqual([
      `/v2/bot/profile/${USER}`,
      `/v2/bot/group/${GROUP}/member/${USER}`,
      `/v2/bot/room/${ROOM}/member/${USER}`,
    ]);
    await script(c.credentials.channelAccessToken, [{ status: 404, body: { message: "Not found" } }]);
    expect(await line.profile!(ctx, { ...base, threadKey: USER, sender: { id: USER } })).toBeNull();
  });

  it("download: the content's bytes from the data API, with the token", async () => {
    const c = channel();
    const response = await line.download!(contextOf(c), { kind: "image", ref: "354718705033693859" });
    expect(response.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const [request] = await requests(c.credentials.channelAccessToken);
    expect(request).toMatchObject({ method: "GET", path: "/v2/bot/message/354718705033693859/content" });
  });

  it("connect: the bot's name, the webhook URL set at LINE; LINE's refusal named", async () => {
    const c = channel();
    expect(await line.connect(contextOf(c))).toBe(
      'LINE bot "Stand-in bot" (@123abcde): webhook URL set to https://bots.example.com/channels/line/inbox-1',
    );
    const sent = await requests(c.credentials.channelAccessToken);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v2/bot/info",
      "PUT /v2/bot/channel/webhook/endpoint",
      "GET /v2/bot/channel/webhook/endpoint",
    ]);
    expect(sent[1].body).toEqual({ endpoint: c.webhookUrl });

    const local = channel(unique("line-token"), "http://localhost/channels/line/inbox-1");
    await expect(line.connect(contextOf(local))).rejects.toThrow(
      "LINE answered 400: The request body has 1 error(s) (endpoint: Invalid webhook endpoint URL)",
    );
    const revoked = channel();
    const unauthorized = {
      status: 401,
      body: { message: "Authentication failed. Confirm that the access token in the authorization header is valid." },
    };
    await script(revoked.credentials.channelAccessToken, [unauthorized]);
    await expect(line.connect(contextOf(revoked))).rejects.toThrow("LINE answered 401: Authentication failed.");
  });

  it("typing: the loading animation in a one-on-one chat, nothing for a group", async () => {
    const c = channel();
    await line.typing!(contextOf(c), USER);
    await line.typing!(contextOf(c), GROUP);
    const sent = await requests(c.credentials.channelAccessToken);
    expect(sent.map((r) => [r.path, r.body])).toEqual([
      ["/v2/bot/chat/loading/start", { chatId: USER, loadingSeconds: 20 }],
    ]);
  });
});
