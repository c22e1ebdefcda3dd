// The Meta module against Meta's documented payloads and the Graph API stand-in
// (test/support/platforms/graph.mjs), which signs like Meta and checks what we send.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../src/lib/errors";
import { platformContext } from "../../../src/services/channels/http";
import { instagram, messenger, whatsapp } from "../../../src/services/channels/meta";
import type { ChannelConfig, ChannelPlatform, OutboundMessage } from "../../../src/services/channels/types";
import { outboundMessage } from "./outbound";
import * as sample from "../../channels/meta-samples";
import type { GraphBody, RecordedRequest } from "../../support/platforms/recorded";
import { hmacSha256Key } from "../../support/hmac";

const graphUrl: string = JSON.parse(env.TEST_PLATFORM_URLS).graph;
const JSON_POST = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
const control = async <T = unknown>(path: string, body?: unknown) =>
  (await fetch(`${graphUrl}${path}`, body === undefined ? {} : JSON_POST(body))).json<T>();
const sign = (appSecret: string, body: unknown) =>
  control<{ headers: Record<string, string>; body: string }>("/__sign", { appSecret, body });
const requests = (token: string) =>
  control<RecordedRequest<GraphBody>[]>(`/__requests?key=${encodeURIComponent(token)}`);
const script = (token: string, responses: unknown[]) => control("/__script", { key: token, responses });

const APP_SECRET = "d6c2bd9b0b4d1c8e5e7c2b5f6a1e3d9c";
const newToken = () => `EAAG${crypto.randomUUID().replaceAll("-", "")}`;

function channel(platform: ChannelPlatform, credentials: Record<string, string> = {}): ChannelConfig {
  const token = newToken();
  const byPlatform: Record<string, Record<string, string>> = {
    messenger: { pageId: sample.PAGE_ID, pageAccessToken: token, appSecret: APP_SECRET },
    instagram: { instagramAccountId: sample.IG_ID, pageAccessToken: token, appSecret: APP_SECRET },
    whatsapp: {
      phoneNumberId: sample.PHONE_NUMBER_ID,
      businessAccountId: sample.WABA_ID,
      accessToken: token,
      appSecret: APP_SECRET,
    },
  };
  return {
    inboxId: "inbox",
    organizationId: "org",
    platform,
    credentials: { ...byPlatform[platform], ...credentials },
    verifyToken: "verify-3f9a",
    webhookSecret: "",
    webhookUrl: `https://example.com/channels/${platform}/inbox`,
  };
}
const tokenOf = (c: ChannelConfig) => c.credentials.pageAccessToken ?? c.credentials.accessToken;
const reply = (threadKey: string, text: string, more: Partial<OutboundMessage> = {}) =>
  outboundMessage({ threadKey, text, ...more });
const signedRequest = (signed: { headers: Record<string, string>; body: string }) =>
  new Request("https://example.com/channels/messenger/inbox", {
    method: "POST",
    headers: signed.headers,
    body: signed.body,
  });

describe("X-Hub-Signature-256", () => {
  it("accepts Meta's signature of the body and nothing else", async () => {
    const signed = await sign(APP_SECRET, sample.messengerText());
    const c = channel("messenger");
    expect(await messenger.verify(signedRequest(signed), signed.body, c)).toBe(true);
    expect(await messenger.verify(signedRequest(signed), signed.body.replace("hello", "hullo"), c)).toBe(false);
    expect(
      await messenger.verify(signedRequest(signed), signed.body, channel("messenger", { appSecret: "another-secret" })),
    ).toBe(false);
    const unsigned = new Request("https://example.com/", { method: "POST", body: signed.body });
    expect(await messenger.verify(unsigned, signed.body, c)).toBe(false);
    const sha1Only = new Request("https://example.com/", {
      method: "POST",
      headers: { "x-hub-signature": "sha1=0000" },
      body: signed.body,
    });
    expect(await whatsapp.verify(sha1Only, signed.body, channel("whatsapp"))).toBe(false);
  });

  it("holds for text Meta escapes (\\uXXXX), as sent and as decoded", async () => {
    const signed = await sign(APP_SECRET, sample.whatsappText("äöå こんにちは 👋"));
    expect(signed.body).toContain("\\u00e4\\u00f6\\u00e5");
    const c = channel("whatsapp");
    expect(await whatsapp.verify(signedRequest(signed), signed.body, c)).toBe(true);
    const decoded = JSON.stringify(JSON.parse(signed.body)).replaceAll("/", "\\/");
    expect(decoded).toContain("äöå");
    expect(await whatsapp.verify(signedRequest(signed), decoded, c)).toBe(true);
    expect(whatsapp.parse(signed.body, c)[0].text).toBe("äöå こんにちは 👋");
  });
});

describe("GET subscription handshake", () => {
  const get = (query: string) => new Request(`https://example.com/channels/instagram/inbox?${query}`);
  it("echoes hub.challenge for the channel's verify token, 403 as wrong_verify_token otherwise", async () => {
    const c = channel("instagram");
    const check = (query: string) => instagram.handshake!(get(query), "", c, false);
    const ok = check("hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=verify-3f9a")!;
    expect(ok.passed).toBe(true);
    expect(ok.answer!.status).toBe(200);
    expect(ok.answer!.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await ok.answer!.text()).toBe("1158201444");
    const refused = check("hub.mode=subscribe&hub.challenge=1&hub.verify_token=verify-3f9b")!;
    expect(refused).toMatchObject({ passed: false, refusal: "wrong_verify_token" });
    expect(refused.answer!.status).toBe(403);
    // Not Meta's check (Meta sends only `subscribe`; a browser opening the URL sends nothing).
    expect(check("hub.mode=unsubscribe&hub.challenge=1&hub.verify_token=verify-3f9a")).toBeNull();
    expect(check("")).toBeNull();
    expect(
      messenger.handshake!(new Request("https://example.com/", { method: "POST", body: "{}" }), "{}", c, true),
    ).toBeNull();
  });
});

describe("parse", () => {
  it("reads Messenger's text and attachment messages: mid, PSID, timestamp", () => {
    const c = channel("messenger");
    expect(messenger.parse(JSON.stringify(sample.messengerText()), c)).toEqual([
      {
        eventId: "mid.1457764197618:41d102a3e1ae206a38",
        threadKey: sample.PSID,
        sender: { id: sample.PSID },
        text: "hello, world!",
        attachments: [],
        at: 1458692752478,
      },
    ]);
    const [event] = messenger.parse(
      JSON.stringify(sample.messengerAttachment("https://scontent.xx.fbcdn.net/v/t1.15752-9/photo_n.png?_nc_cat=1")),
      c,
    );
    expect(event.attachments).toEqual([
      {
        kind: "image",
        ref: "https://scontent.xx.fbcdn.net/v/t1.15752-9/photo_n.png?_nc_cat=1",
        filename: "photo_n.png",
      },
    ]);
  });

  it("skips echoes, deliveries, reads, other Pages' entries and other objects; 400 for a body that is not JSON", () => {
    const c = channel("messenger");
    expect(messenger.parse(JSON.stringify(sample.messengerNoise), c)).toEqual([]);
    expect(messenger.parse(JSON.stringify(sample.messengerText("hi", "m_1", "999")), c)).toEqual([]);
    expect(messenger.parse(JSON.stringify(sample.instagramText("hi")), c)).toEqual([]);
    expect(() => messenger.parse("not json", c)).toThrow(ApiError);
  });

  it("reads Instagram's messages, a tapped quick reply's whole starter, a shared reel as its kind and link", () => {
    const c = channel("instagram");
    const payload = sample.instagramText("Opening hours?");
    expect(instagram.parse(JSON.stringify(payload), c)).toMatchObject([
      { threadKey: "1254459154682919", text: "Opening hours?" },
    ]);
    const event = payload.entry[0].messaging[0];
    event.message = {
      ...event.message,
      quick_reply: { payload: "qr:What are your opening hours on public holidays?" },
    };
    expect(instagram.parse(JSON.stringify(payload), c)[0].text).toBe("What are your opening hours on public holidays?");
    const reel = {
      type: "ig_reel",
      payload: { reel_video_id: "1", url: "https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1" },
    };
    event.message = { mid: "m_2", attachments: [reel] };
    // Named by its kind before its link: a bare CDN link said nothing of what it was.
    expect(instagram.parse(JSON.stringify(payload), c)[0]).toMatchObject({
      text: "[ig_reel] https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1",
      attachments: [],
    });
    event.message = { mid: "m_3", text: "sent from the app", is_echo: true };
    expect(instagram.parse(JSON.stringify(payload), c)).toEqual([]);
  });

  it(
    "reads WhatsApp's messages: wamid, the phone number, the name from contacts, media by id; statuses are not " +
      "messages",
    () => {
      const c = channel("whatsapp");
      expect(whatsapp.parse(JSON.stringify(sample.whatsappText()), c)).toEqual([
        {
          eventId: "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=",
          threadKey: "16505551234",
          sender: { id: "16505551234", name: "Sheena Nelson", phoneNumber: "+16505551234" },
          text: "Does it come in another color?",
          attachments: [],
          at: 1749416383000,
        },
      ]);
      expect(whatsapp.parse(JSON.stringify(sample.whatsappImage()), c)[0]).toMatchObject({
        text: "This is the new one",
        attachments: [{ kind: "image", ref: "1045263457620861", contentType: "image/png" }],
      });
      expect(whatsapp.parse(JSON.stringify(sample.whatsappStatus), c)).toEqual([]);
      expect(
        whatsapp.parse(JSON.stringify(sample.whatsappText()), channel("whatsapp", { phoneNumberId: "1" })),
      ).toEqual([]);
      const button_reply = { id: "qr:Do you deliver to Taichung on weekends?", title: "Do you deliver to T…" };
      const interactive = { type: "button_reply", button_reply };
      const tapped = sample.whatsappMessage({
        from: "16505551234",
        id: "wamid.b",
        timestamp: "1",
        type: "interactive",
        interactive,
      });
      expect(whatsapp.parse(JSON.stringify(tapped), c)[0].text).toBe("Do you deliver to Taichung on weekends?");
    },
  );
});

describe("malformed events", () => {
  it("pass over the items that cannot be read and keep their neighbours; a body that is not an object is 400", () => {
    const [kept] = sample.messengerText("kept").entry[0].messaging;
    const odd = [null, 7, { sender: "x", message: { mid: 1 } }, { sender: { id: {} } }];
    const page = {
      object: "page",
      entry: [
        {
          id: sample.PAGE_ID,
          messaging: [
            ...odd,
            kept,
            { sender: { id: sample.PSID }, message: { mid: "m_9", text: 5, attachments: "x" } },
          ],
        },
        "entry",
        { id: { not: "an id" }, messaging: [{ sender: { id: "1" }, message: { mid: "m" } }] },
      ],
    };
    const c = channel("messenger");
    expect(messenger.parse(JSON.stringify(page), c).map((e) => e.text)).toEqual(["kept"]);
    expect(messenger.parse(JSON.stringify({ object: "page", entry: { messaging: [] } }), c)).toEqual([]);
    expect(() => messenger.parse("[]", c)).toThrow(ApiError);

    const messages = [
      null,
      { from: "16505551234", type: "text", text: { body: "no id" } },
      { from: "16505551234", id: "wamid.k", timestamp: "1", type: "text", text: { body: "kept" } },
      { from: "16505551234", id: "wamid.c", type: "image", image: "not media" },
    ];
    const contacts = [7, { profile: { name: "Sheena Nelson" }, wa_id: "16505551234" }];
    const value = { metadata: { phone_number_id: sample.PHONE_NUMBER_ID }, contacts, messages };
    const wa = {
      object: "whatsapp_business_account",
      entry: [
        {
          changes: [
            { field: "messages", value },
            { field: "messages", value: { metadata: "?", messages } },
          ],
        },
      ],
    };
    const w = channel("whatsapp");
    // An image whose media cannot be read is still the person's message: said, not passed over.
    expect(whatsapp.parse(JSON.stringify(wa), w)).toMatchObject([
      { text: "kept", sender: { name: "Sheena Nelson" } },
      { eventId: "wamid.c", text: "[WhatsApp message: image]" },
    ]);
    expect(() => whatsapp.parse("null", w)).toThrow(ApiError);
  });
});

/** appsecret_proof, documented by Meta: hex HMAC-SHA256 of the token keyed with the app secret. */
async function appsecretProof(token: string) {
  const key = await hmacSha256Key(APP_SECRET, "sign");
  return [...new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(token)))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

describe("send", () => {
  it(
    "Messenger: the Page's Send API with the token, plain text with links, split at 2000, quick replies on the " +
      "last part",
    async () => {
      const c = channel("messenger");
      const long =
        `**Opening hours** are [on our ` +
        `site](https://shop.example/hours).\n\n${"Lorem ipsum dolor sit amet. ".repeat(90)}`;
      const starters = Array.from({ length: 15 }, (_, i) => `Question number ${i + 1} about delivery`);
      const citations = [{ title: "Hours", url: "https://shop.example/hours" }];
      const ids = await messenger.send(
        platformContext(env, c),
        reply(sample.PSID, long, { quickReplies: starters, citations }),
      );
      const sent = (await requests(tokenOf(c))).filter((r) => r.method === "POST");
      expect(ids).toHaveLength(sent.length);
      expect(sent.length).toBeGreaterThan(1);
      for (const r of sent) {
        expect(r.path).toBe(`/v24.0/${sample.PAGE_ID}/messages`);
        expect(r.headers.authorization).toBe(`Bearer ${tokenOf(c)}`);
        expect(r.query.appsecret_proof).toBe(await appsecretProof(tokenOf(c)));
        expect(r.body).toMatchObject({ recipient: { id: sample.PSID }, messaging_type: "RESPONSE" });
        expect([...r.body.message!.text!].length).toBeLessThanOrEqual(2000);
      }
      expect(sent[0].body.message!.text).toMatch(/^Opening hours are on our site \(https:\/\/shop\.example\/hours\)\./);
      expect(sent.at(-1)!.body.message!.text).toMatch(/• Hours \(https:\/\/shop\.example\/hours\)$/);
      expect(sent.slice(0, -1).every((r) => !r.body.message!.quick_replies)).toBe(true);
      const replies = sent.at(-1)!.body.message!.quick_replies;
      expect(replies).toHaveLength(13);
      expect(replies![0]).toEqual({
        content_type: "text",
        title: "Question number 1 a…",
        payload: "qr:Question number 1 about delivery",
      });
    },
  );

  it(
    "a person of the team answering after Meta's 24-hour window tags the message HUMAN_AGENT; the assistant and " +
      "answers within it are responses",
    async () => {
      const c = channel("messenger");
      const lastInboundAt = Date.UTC(2026, 10, 1, 9);
      const hours = (h: number) => lastInboundAt + h * 3600_000;
      await messenger.send(
        platformContext(env, c),
        reply(sample.PSID, "Sorry for the wait.", { fromPerson: true, lastInboundAt, at: hours(25) }),
      );
      await messenger.send(
        platformContext(env, c),
        reply(sample.PSID, "Here you are.", { fromPerson: true, lastInboundAt, at: hours(23) }),
      );
      await messenger.send(
        platformContext(env, c),
        reply(sample.PSID, "An assistant's late answer.", { fromPerson: false, lastInboundAt, at: hours(25) }),
      );
      const sent = (await requests(tokenOf(c))).filter((r) => r.method === "POST").map((r) => r.body);
      expect(sent.map((b) => [b.message!.text, b.messaging_type, b.tag])).toEqual([
        ["Sorry for the wait.", "MESSAGE_TAG", "HUMAN_AGENT"],
        ["Here you are.", "RESPONSE", undefined],
        ["An assistant's late answer.", "RESPONSE", undefined],
      ]);
    },
  );

  it("Instagram: me/messages, parts of at most 1000 UTF-8 bytes", async () => {
    const c = channel("instagram");
    const japanese = "営業時間は平日の午前九時から午後五時までです。".repeat(40);
    await instagram.send(platformContext(env, c), reply("1254459154682919", japanese));
    const sent = await requests(tokenOf(c));
    expect(sent.length).toBeGreaterThanOrEqual(3);
    for (const r of sent) {
      expect(r.path).toBe("/v24.0/me/messages");
      expect(new TextEncoder().encode(r.body.message!.text).length).toBeLessThanOrEqual(1000);
    }
    expect(sent.map((r) => r.body.message!.text).join("")).toBe(japanese);
  });

  it("WhatsApp: text with link previews split at 4096, starters as up to 3 reply buttons, files by link", async () => {
    const c = channel("whatsapp");
    const text = `See [the catalogue](https://shop.example/c).\n\n${"Colours and sizes vary by season. ".repeat(150)}`;
    const ids = await whatsapp.send(
      platformContext(env, c),
      reply("16505551234", text, {
        quickReplies: ["Sizes", "Colours", "Do you deliver to Taichung on weekends?", "Returns"],
        attachments: [{ url: "https://files.example/c.pdf", filename: "c.pdf", contentType: "application/pdf" }],
      }),
    );
    const sent = await requests(tokenOf(c));
    expect(ids.every((id) => id.startsWith("wamid."))).toBe(true);
    expect(
      sent.every(
        (r) =>
          r.path === `/v24.0/${sample.PHONE_NUMBER_ID}/messages` && r.headers.authorization === `Bearer ${tokenOf(c)}`,
      ),
    ).toBe(true);
    expect(sent[0].body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "16505551234",
      type: "text",
      text: { body: expect.stringMatching(/^See the catalogue \(https:\/\/shop\.example\/c\)\./), preview_url: true },
    });
    const interactive = sent.at(-2)!.body;
    expect(interactive.type).toBe("interactive");
    expect(interactive.interactive!.body.text.length).toBeLessThanOrEqual(1024);
    expect(interactive.interactive!.action.buttons.map((b) => b.reply.title)).toEqual([
      "Sizes",
      "Colours",
      "Do you deliver to T…",
    ]);
    expect(interactive.interactive!.action.buttons[2].reply.id).toBe("qr:Do you deliver to Taichung on weekends?");
    expect(sent.at(-1)!.body).toMatchObject({
      type: "document",
      document: { link: "https://files.example/c.pdf", filename: "c.pdf" },
    });
  });

  it("names Meta's refusal; tries a throttled call again, not a bad one", async () => {
    const c = channel("whatsapp");
    const ctx = platformContext(env, c);
    const refused = await whatsapp.send(ctx, reply("not-a-number", "hi")).catch((err) => err);
    expect(refused.message).toBe("WhatsApp answered 400: (#100) Param to must be a WhatsApp user's phone number");
    expect(refused.retryable).toBe(false);
    await script(tokenOf(c), [
      { status: 400, body: { error: { message: "(#130429) Rate limit hit", type: "OAuthException", code: 130429 } } },
    ]);
    const throttled = await whatsapp.send(ctx, reply("16505551234", "hi")).catch((err) => err);
    expect([throttled.message, throttled.retryable]).toEqual(["WhatsApp answered 400: (#130429) Rate limit hit", true]);
    const m = channel("messenger");
    const rateLimit = { error: { message: "(#613) Calls to this api have exceeded the rate limit.", code: 613 } };
    await script(tokenOf(m), [{ status: 429, headers: { "retry-after": "7" }, body: rateLimit }]);
    const limited = await messenger.send(platformContext(env, m), reply(sample.PSID, "hi")).catch((err) => err);
    expect([limited.retryable, limited.retryAfterSeconds]).toEqual([true, 7]);
  });

  it("shows typing in Messenger and Instagram", async () => {
    const c = channel("messenger");
    await messenger.typing!(platformContext(env, c), sample.PSID);
    expect((await requests(tokenOf(c)))[0].body).toEqual({
      recipient: { id: sample.PSID },
      sender_action: "typing_on",
    });
  });
});

describe("profiles, files and connecting", () => {
  it("reads Messenger's and Instagram's profiles; a refused profile is none", async () => {
    const event = messenger.parse(JSON.stringify(sample.messengerText()), channel("messenger"))[0];
    const c = channel("messenger");
    expect(await messenger.profile!(platformContext(env, c), event)).toEqual({
      name: "Ada Lovelace",
      avatar: `${graphUrl}/cdn/ada.png`,
    });
    expect((await requests(tokenOf(c)))[0]).toMatchObject({
      path: `/v24.0/${sample.PSID}`,
      query: { fields: "first_name,last_name,profile_pic" },
    });
    const i = channel("instagram");
    expect(await instagram.profile!(platformContext(env, i), event)).toMatchObject({ name: "Ada Lovelace" });
    await script(tokenOf(i), [
      { status: 400, body: { error: { message: "(#230) Requires pages_messaging permission", code: 230 } } },
    ]);
    expect(await instagram.profile!(platformContext(env, i), event)).toBeNull();
  });

  it("downloads Messenger's attachment URL and WhatsApp's media id (URL, then bytes, both with a token)", async () => {
    const m = channel("messenger");
    const png = await (await fetch(`${graphUrl}/cdn/photo.png`)).arrayBuffer();
    const file = await messenger.download!(platformContext(env, m), {
      kind: "image",
      ref: `${graphUrl}/cdn/photo.png`,
    });
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array(png));
    const elsewhere = await messenger.download!(platformContext(env, m), {
      kind: "image",
      ref: "https://files.example/x.png",
    });
    expect([elsewhere.status, await elsewhere.text()]).toEqual([
      403,
      "files.example is not one of Meta's file hosts; not fetched.",
    ]);
    const gone = await whatsapp.download!(platformContext(env, channel("whatsapp")), { kind: "image", ref: "404" });
    expect(gone.status).toBe(400);
    const w = channel("whatsapp");
    const media = await whatsapp.download!(platformContext(env, w), { kind: "image", ref: "1045263457620861" });
    expect(media.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await media.arrayBuffer())).toEqual(new Uint8Array(png));
    const [lookup, bytes] = await requests(tokenOf(w));
    expect(lookup.path).toBe("/v24.0/1045263457620861");
    expect(bytes).toMatchObject({ path: "/whatsapp_business/attachments/", query: { mid: "1045263457620861" } });
    expect(bytes.headers.authorization).toBe(`Bearer ${tokenOf(w)}`);
  });

  it("connects: checks the Page, account or number and subscribes the app; a refusal names Meta's reason", async () => {
    const m = channel("messenger");
    expect(await messenger.connect(platformContext(env, m))).toMatch(/Facebook Page "Stand-in Shop"/);
    const calls = (await requests(tokenOf(m))).map((r) => `${r.method} ${r.path}`);
    expect(calls).toEqual([`GET /v24.0/${sample.PAGE_ID}`, `POST /v24.0/${sample.PAGE_ID}/subscribed_apps`]);
    expect(await instagram.connect(platformContext(env, channel("instagram")))).toMatch(/@standin\.shop/);
    const w = channel("whatsapp");
    expect(await whatsapp.connect(platformContext(env, w))).toMatch(/\+1 555-010-0199 \(Stand-in Shop\)/);
    expect((await requests(tokenOf(w)))[1]).toMatchObject({
      method: "POST",
      path: `/v24.0/${sample.WABA_ID}/subscribed_apps`,
    });
    const bad = channel("whatsapp");
    const expired = {
      error: { message: "Error validating access token: Session has expired.", type: "OAuthException", code: 190 },
    };
    await script(tokenOf(bad), [{ status: 401, body: expired }]);
    await expect(whatsapp.connect(platformContext(env, bad))).rejects.toThrow(
      "WhatsApp answered 401: Error validating access token: Session has expired.",
    );
  });
});
