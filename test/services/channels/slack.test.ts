// The Slack module on its own: signatures (Slack's documented example and the stand-in's signing),
// the url_verification handshake, events in the form Slack documents, and the Web API calls against the
// stand-in (test/support/platforms/slack.mjs).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { thrownBy } from "../../support/errors";
import { ApiError } from "../../../src/lib/errors";
import { platformContext } from "../../../src/services/channels/http";
import { SLACK_TEXT_LIMIT, fromSlackText, slack, verifySlackSignature } from "../../../src/services/channels/slack";
import { PlatformError, type ChannelConfig, type OutboundMessage } from "../../../src/services/channels/types";
import { outboundMessage } from "./outbound";
import { slackButtonTap, slackEnvelope } from "../../support/slack-events";
import type { RecordedRequest, SlackBody } from "../../support/platforms/recorded";

const standIn = JSON.parse(env.TEST_PLATFORM_URLS).slack as string;
const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";

const config = (credentials: Partial<Record<"botToken" | "signingSecret", string>> = {}): ChannelConfig => ({
  inboxId: "inbox",
  organizationId: "org",
  platform: "slack",
  credentials: { botToken: `xoxb-${crypto.randomUUID()}`, signingSecret: SECRET, ...credentials },
  verifyToken: "",
  webhookSecret: "",
  webhookUrl: "https://example.com/channels/slack/inbox",
});

async function control<T = unknown>(path: string, body?: unknown) {
  const init =
    body === undefined
      ? {}
      : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(`${standIn}${path}`, init);
  expect(response.status).toBe(200);
  return response.json<T>();
}
const requests = (token: string) =>
  control<RecordedRequest<SlackBody>[]>(`/__requests?key=${encodeURIComponent(token)}`);
const signed = (input: Record<string, unknown>) =>
  control<{ headers: Record<string, string>; body: string }>("/__sign", input);
const webhook = (s: { headers: Record<string, string>; body: string }) =>
  new Request("https://example.com/channels/slack/inbox", { method: "POST", headers: s.headers, body: s.body });

// Slack's own examples (docs.slack.dev: message.im, message/file_share, app_mention), in their envelope.
const envelope = (event: Record<string, unknown>, eventId = "Ev0PV52K21") =>
  slackEnvelope(event, { botUserId: "U0LAN0Z89", eventId, eventTime: 1355517523 });
const IM = {
  type: "message",
  channel: "D024BE91L",
  user: "U2147483697",
  text: "Hello hello can you hear me?",
  ts: "1355517523.000005",
  event_ts: "1355517523.000005",
  channel_type: "im",
};
const FILE_SHARE = {
  type: "message",
  subtype: "file_share",
  text: "We got one!",
  files: [
    {
      id: "F0RDC39U1",
      name: "ghostrap.png",
      title: "ghostrap.png",
      mimetype: "image/png",
      filetype: "png",
      size: 196920,
      mode: "hosted",
      url_private: "https://files.slack.com/files-pri/T061EG9R6-F0RDC39U1/ghostrap.png",
      url_private_download: "https://files.slack.com/files-pri/T061EG9R6-F0RDC39U1/download/ghostrap.png",
    },
  ],
  user: "U061F7AUR",
  upload: true,
  display_as_bot: false,
  bot_id: null,
  ts: "1529342088.000086",
  channel: "D0L4B9P0Q",
  event_ts: "1529342088.000086",
  channel_type: "im",
};
const MENTION = {
  type: "app_mention",
  user: "U061F7AUR",
  text: "<@U0LAN0Z89> is it everything a river should be?",
  ts: "1515449522.000016",
  channel: "C123ABC456",
  event_ts: "1515449522000016",
};
const parse = (body: unknown) => slack.parse(JSON.stringify(body), config());

describe("Slack request signatures", () => {
  // docs.slack.dev "Verifying requests from Slack": its signing secret, timestamp, body and signature.
  const docBody = [
    "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar",
    "&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=",
    "&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN",
    "&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c",
  ].join("");
  const docSignature = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";
  const docHeaders = () =>
    new Headers({ "x-slack-request-timestamp": "1531420618", "x-slack-signature": docSignature });
  const at = (seconds: number) => seconds * 1000;

  it("accepts Slack's documented example within five minutes of its timestamp", async () => {
    expect(await verifySlackSignature(docHeaders(), docBody, SECRET, at(1531420618))).toBe(true);
    expect(await verifySlackSignature(docHeaders(), docBody, SECRET, at(1531420618 + 299))).toBe(true);
    expect(await verifySlackSignature(docHeaders(), docBody, SECRET, at(1531420618 - 299))).toBe(true);
  });

  it("refuses it over five minutes late or early (a replay), with another body, secret or no header", async () => {
    expect(await verifySlackSignature(docHeaders(), docBody, SECRET, at(1531420618 + 301))).toBe(false);
    expect(await verifySlackSignature(docHeaders(), docBody, SECRET, at(1531420618 - 301))).toBe(false);
    expect(
      await verifySlackSignature(docHeaders(), docBody.replace("roadrunner", "coyote"), SECRET, at(1531420618)),
    ).toBe(false);
    expect(await verifySlackSignature(docHeaders(), docBody, "another-secret", at(1531420618))).toBe(false);
    expect(await verifySlackSignature(docHeaders(), docBody, "", at(1531420618))).toBe(false);
    const noSignature = docHeaders();
    noSignature.delete("x-slack-signature");
    expect(await verifySlackSignature(noSignature, docBody, SECRET, at(1531420618))).toBe(false);
    const noTimestamp = docHeaders();
    noTimestamp.delete("x-slack-request-timestamp");
    expect(await verifySlackSignature(noTimestamp, docBody, SECRET, at(1531420618))).toBe(false);
  });

  it("verifies an event the stand-in signed now, and a redelivery with X-Slack-Retry-Num", async () => {
    const body = envelope(IM);
    expect(
      await slack.verify(webhook(await signed({ signingSecret: SECRET, body })), JSON.stringify(body), config()),
    ).toBe(true);
    const retry = await signed({ signingSecret: SECRET, body, retryNum: 1 });
    expect(retry.headers["x-slack-retry-num"]).toBe("1");
    expect(await slack.verify(webhook(retry), retry.body, config())).toBe(true);
    const other = await signed({ signingSecret: "not-ours", body });
    expect(await slack.verify(webhook(other), other.body, config())).toBe(false);
    const old = await signed({ signingSecret: SECRET, body, timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(await slack.verify(webhook(old), old.body, config())).toBe(false);
  });
});

describe("Slack's url_verification handshake", () => {
  it("echoes the challenge when signed, is refused (bad_signature) unsigned, and an event is none", async () => {
    const body = {
      token: "Jhj5dZrVaK7ZwHHjRyZWjbDl",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
      type: "url_verification",
    };
    const check = (signed: boolean) =>
      slack.handshake!(
        new Request("https://example.com/", { method: "POST", body: JSON.stringify(body) }),
        JSON.stringify(body),
        config(),
        signed,
      );
    const passed = check(true);
    expect(passed?.passed).toBe(true);
    expect(passed?.answer?.status).toBe(200);
    expect(await passed?.answer?.json()).toEqual({ challenge: body.challenge });
    // No answer of its own: the 401 of any request not signed.
    expect(check(false)).toEqual({ passed: false, refusal: "bad_signature" });
    expect(
      slack.handshake!(
        new Request("https://example.com/", { method: "POST" }),
        JSON.stringify(envelope(IM)),
        config(),
        true,
      ),
    ).toBeNull();
    expect(slack.handshake!(new Request("https://example.com/"), "", config(), false)).toBeNull();
  });
});

describe("Slack events read", () => {
  it(
    "reads a direct message: the DM channel is the thread, the user the sender, the message's own id the " + "event's",
    () => {
      expect(parse(envelope(IM))).toEqual([
        {
          eventId: "D024BE91L:1355517523.000005",
          threadKey: "D024BE91L",
          sender: { id: "U2147483697" },
          thread: { threadTs: null },
          text: "Hello hello can you hear me?",
          attachments: [],
          at: 1355517523000,
        },
      ]);
    },
  );

  it("reads a shared file as an attachment fetched from its private download URL", () => {
    const [event] = parse(envelope(FILE_SHARE));
    expect(event.text).toBe("We got one!");
    expect(event.attachments).toEqual([
      {
        kind: "image",
        ref: FILE_SHARE.files[0].url_private_download,
        filename: "ghostrap.png",
        contentType: "image/png",
      },
    ]);
  });

  it("makes each top-level channel message a thread of its own, a group, answered in that thread", () => {
    const top = { ...IM, channel: "C024BE91L", channel_type: "channel" };
    expect(parse(envelope(top))[0]).toMatchObject({
      threadKey: "C024BE91L:1355517523.000005",
      group: { id: "C024BE91L" },
      thread: { threadTs: "1355517523.000005" },
    });
    const reply = { ...top, ts: "1355517600.000001", thread_ts: "1355517523.000005" };
    expect(parse(envelope(reply))[0]).toMatchObject({
      eventId: "C024BE91L:1355517600.000001",
      threadKey: "C024BE91L:1355517523.000005",
    });
    const privateGroup = { ...top, channel: "G024BE91L", channel_type: "group" };
    expect(parse(envelope(privateGroup))[0].group).toEqual({ id: "G024BE91L" });
  });

  it("reads an app_mention as the same event as the message event of that mention, without the bot's mention", () => {
    const [mention] = parse(envelope(MENTION, "Ev0MENTION"));
    const [message] = parse(envelope({ ...MENTION, type: "message", channel_type: "channel" }, "Ev0MESSAGE"));
    expect(mention.eventId).toBe(message.eventId);
    expect(mention).toMatchObject({
      threadKey: "C123ABC456:1515449522.000016",
      group: { id: "C123ABC456" },
      text: "is it everything a river should be?",
    });
  });

  it("ignores bots (ours included), changes that are no edit, joins, reactions and envelopes without a message", () => {
    expect(parse(envelope({ ...IM, bot_id: "B0BOT1D00", user: "U0LAN0Z89" }))).toEqual([]);
    const bot = {
      type: "message",
      subtype: "bot_message",
      bot_id: "B123",
      text: "beep",
      ts: "1.2",
      channel: "C1",
      channel_type: "channel",
    };
    expect(parse(envelope(bot))).toEqual([]);
    // A message changed with no `edited` mark (an unfurl, a language detected) is no edit of the person's.
    const changed = {
      type: "message",
      subtype: "message_changed",
      hidden: true,
      channel: "C1",
      ts: "1.3",
      message: { user: "U1", text: "unfurled", ts: "1.1" },
    };
    expect(parse(envelope(changed))).toEqual([]);
    const join = {
      type: "message",
      subtype: "channel_join",
      user: "U1",
      text: "<@U1> has joined the channel",
      ts: "1.4",
      channel: "C1",
    };
    expect(parse(envelope(join))).toEqual([]);
    expect(
      parse(
        envelope({
          type: "reaction_added",
          user: "U1",
          reaction: "thumbsup",
          item: { type: "message", channel: "C1", ts: "1.5" },
        }),
      ),
    ).toEqual([]);
    expect(
      parse({ token: "x", team_id: "T1", minute_rate_limited: 1518467820, api_app_id: "A1", type: "app_rate_limited" }),
    ).toEqual([]);
  });

  it("refuses a body that is neither JSON nor an interactivity payload with a 400", () => {
    expect(() => slack.parse("not json", config())).toThrow(ApiError);
    expect(thrownBy(() => slack.parse("{", config()), ApiError).status).toBe(400);
  });

  it("reads Slack's markup as text: links, mentions, channels, entities", () => {
    expect(fromSlackText("see <https://example.com/a?b=1&amp;c=2|the docs> &amp; <https://example.com>")).toBe(
      "see the docs (https://example.com/a?b=1&c=2) & https://example.com",
    );
    expect(fromSlackText("<@U0LAN0Z89> ask <@U2147483697> in <#C024BE7LR|general> <!here> &lt;3", "U0LAN0Z89")).toBe(
      "ask @U2147483697 in #general @here <3",
    );
    expect(fromSlackText("<mailto:bob@example.com|bob@example.com>")).toBe("bob@example.com");
  });

  it("reads a quick reply button's tap (block_actions) as the visitor's message in the buttons' thread", async () => {
    const payload = slackButtonTap({
      channel: { id: "C024BE91L", name: "support" },
      messageTs: "1548261231.000200",
      threadTs: "1548261200.000100",
      value: "Opening hours",
      actionTs: "1548426417.840180",
    });
    const request = await signed({ signingSecret: SECRET, payload });
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(await slack.verify(webhook(request), request.body, config())).toBe(true);
    expect(slack.parse(request.body, config())).toEqual([
      {
        eventId: "C024BE91L:action:1548426417.840180",
        threadKey: "C024BE91L:1548261200.000100",
        group: { id: "C024BE91L" },
        thread: { threadTs: "1548261200.000100" },
        sender: { id: "U2147483697" },
        text: "Opening hours",
        attachments: [],
        at: 1548426417840,
      },
    ]);
  });
});

const outbound = (message: Partial<OutboundMessage>) =>
  outboundMessage({ threadKey: "D024BE91L", text: "", ...message });

describe("Slack Web API calls (the stand-in)", () => {
  it("connects: auth.test with the bot token names the bot and the team, whose id is kept", async () => {
    const channel = config();
    expect(await slack.connect(platformContext(env, channel))).toEqual({
      detail: "Connected as @assistant in team Ghostbusters",
      settings: { teamId: "T061EG9R6", enterpriseId: "" },
    });
    const [call] = await requests(channel.credentials.botToken);
    expect(call).toMatchObject({
      method: "POST",
      path: "/api/auth.test",
      headers: { authorization: `Bearer ${channel.credentials.botToken}` },
    });
  });

  it("refuses a wrong token with Slack's error code (ok: false), not retryable, and a user token", async () => {
    const wrong = await slack.connect(platformContext(env, config({ botToken: "not-a-token" }))).catch((err) => err);
    expect(wrong).toBeInstanceOf(PlatformError);
    expect(wrong.message).toBe("Slack answered invalid_auth");
    expect(wrong.status).toBe(400);
    expect(wrong.retryable).toBe(false);
    const user = await slack.connect(platformContext(env, config({ botToken: "xoxp-user-token" }))).catch((err) => err);
    expect(user.message).toMatch(/not a bot token/);
  });

  it("sends Markdown as mrkdwn with its sources, JSON with the bearer token, to the DM", async () => {
    const channel = config();
    const ids = await slack.send(
      platformContext(env, channel),
      outbound({
        text: "**Open** from _9_ to 5, see [hours](https://example.com/hours) & more",
        citations: [{ title: "Opening hours", url: "https://example.com/hours" }],
      }),
    );
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^\d+\.\d{6}$/);
    const [call] = await requests(channel.credentials.botToken);
    expect(call.path).toBe("/api/chat.postMessage");
    expect(call.headers["content-type"]).toMatch(/^application\/json/);
    expect(call.headers.authorization).toBe(`Bearer ${channel.credentials.botToken}`);
    expect(call.body).toEqual({
      channel: "D024BE91L",
      text:
        "*Open* from _9_ to 5, see <https://example.com/hours|hours> &amp; more\n\n• " +
        "<https://example.com/hours|Opening hours>",
      unfurl_links: false,
    });
  });

  it("answers in the thread of a channel message, and in a DM's thread when the visitor wrote there", async () => {
    const channel = config();
    const ctx = platformContext(env, channel);
    await slack.send(
      ctx,
      outbound({
        threadKey: "C024BE91L:1355517523.000005",
        text: "In the thread",
        thread: { threadTs: "1355517523.000005" },
      }),
    );
    await slack.send(
      ctx,
      outbound({ threadKey: "D024BE91L", text: "In the DM's thread", thread: { threadTs: "1355517999.000001" } }),
    );
    const [inChannel, inDm] = await requests(channel.credentials.botToken);
    expect(inChannel.body).toMatchObject({
      channel: "C024BE91L",
      thread_ts: "1355517523.000005",
      text: "In the thread",
    });
    expect(inDm.body).toMatchObject({ channel: "D024BE91L", thread_ts: "1355517999.000001" });
  });

  it("splits a long reply at 4,000 characters, between paragraphs, in order", async () => {
    const channel = config();
    const paragraph = (n: number) => `${n}. ${"word ".repeat(300).trim()}`;
    const text = Array.from({ length: 5 }, (_, i) => paragraph(i + 1)).join("\n\n");
    const ids = await slack.send(platformContext(env, channel), outbound({ text }));
    const calls = await requests(channel.credentials.botToken);
    expect(ids).toHaveLength(calls.length);
    // 5 paragraphs of 1,502 characters: two fit in 4,000, a third does not.
    expect(calls.map((c) => c.body.text!.slice(0, 3))).toEqual(["1. ", "3. ", "5. "]);
    for (const call of calls) expect(call.body.text!.length).toBeLessThanOrEqual(SLACK_TEXT_LIMIT);
    expect(calls.map((c) => c.body.text).join("\n\n")).toBe(text);
  });

  it("puts quick replies as buttons under the reply", async () => {
    const channel = config();
    await slack.send(
      platformContext(env, channel),
      outbound({ text: "What would you like?", quickReplies: ["Opening hours", "Prices"] }),
    );
    const [call] = await requests(channel.credentials.botToken);
    expect(call.body.text).toBe("What would you like?");
    expect(call.body.blocks).toEqual([
      { type: "section", text: { type: "mrkdwn", text: "What would you like?" } },
      {
        type: "actions",
        elements: [
          {
            type: "button",
            action_id: "quick_reply_0",
            text: { type: "plain_text", text: "Opening hours", emoji: true },
            value: "Opening hours",
          },
          {
            type: "button",
            action_id: "quick_reply_1",
            text: { type: "plain_text", text: "Prices", emoji: true },
            value: "Prices",
          },
        ],
      },
    ]);
  });

  it(
    "names Slack's refusals: 429 with Retry-After and ratelimited are retried, a 5xx too, channel_not_found is " +
      "not",
    async () => {
      const channel = config();
      const token = channel.credentials.botToken;
      const ctx = platformContext(env, channel);
      await control("/__script", {
        key: token,
        responses: [
          { status: 429, headers: { "retry-after": "7" }, body: { ok: false, error: "ratelimited" } },
          { status: 200, headers: { "retry-after": "3" }, body: { ok: false, error: "ratelimited" } },
          { status: 503, body: { ok: false, error: "service_unavailable" } },
          { status: 200, body: { ok: false, error: "channel_not_found" } },
          { status: 200, body: { ok: false, error: "missing_scope", needed: "chat:write", provided: "users:read" } },
        ],
      });
      const attempt = () => slack.send(ctx, outbound({ text: "Hi" })).catch((err: PlatformError) => err);
      expect(await attempt()).toMatchObject({
        message: "Slack answered 429: ratelimited",
        status: 429,
        retryAfterSeconds: 7,
        retryable: true,
      });
      expect(await attempt()).toMatchObject({
        message: "Slack answered ratelimited",
        status: 429,
        retryAfterSeconds: 3,
        retryable: true,
      });
      expect(await attempt()).toMatchObject({ message: "Slack answered 503: service_unavailable", retryable: true });
      expect(await attempt()).toMatchObject({
        message: "Slack answered channel_not_found",
        status: 400,
        retryable: false,
      });
      expect(await attempt()).toMatchObject({
        message: "Slack answered missing_scope (the app needs the chat:write scope)",
        retryable: false,
      });
    },
  );

  it("reads the sender's profile: display name, else real name, and the 72 px picture", async () => {
    const ctx = platformContext(env, config());
    const event = parse(envelope(IM))[0];
    expect(await slack.profile!(ctx, event)).toEqual({
      name: "spengler",
      avatar: "https://avatars.slack-edge.com/2026-01-01/U2147483697_72.png",
    });
    expect(await slack.profile!(ctx, { ...event, sender: { id: "U061F7AUR" } })).toMatchObject({
      name: "Peter Venkman",
    });
    expect(await slack.profile!(ctx, { ...event, sender: { id: "nobody" } })).toBeNull();
  });

  it("downloads a file with the bot token from the configured origin, and sends the token nowhere else", async () => {
    const channel = config();
    const ctx = platformContext(env, channel);
    const ref = `${standIn}/files-pri/T061EG9R6-F0RDC39U1/download/ghostrap.png`;
    const response = await slack.download!(ctx, { kind: "image", ref });
    expect(response.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
    const [call] = await requests(channel.credentials.botToken);
    expect(call).toMatchObject({ method: "GET", headers: { authorization: `Bearer ${channel.credentials.botToken}` } });
    // Refusals are responses that are not ok, so the intake takes the message in without the file.
    const elsewhere = await slack.download!(ctx, {
      kind: "image",
      ref: "https://attacker.example/files-pri/x/download/a.png",
    });
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toMatch(/unexpected host: attacker.example/);
    const refused = await slack.download!(platformContext(env, config({ botToken: "not-a-token" })), {
      kind: "image",
      ref,
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/files:read/);
  });
});
