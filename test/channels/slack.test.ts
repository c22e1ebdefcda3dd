// Slack end to end, against the Web API stand-in (test/support/platforms/slack.mjs): events signed
// by the stand-in the way Slack signs them, posted to our webhook; replies read from what the stand-in got.
import { describe, expect, it } from "vitest";
import { seedOwner } from "../harness";
import {
  channelInbox,
  conversationsOf,
  eventually,
  lastIs,
  messagesWhen,
  nthIs,
  onlyConversation,
  post,
  setAside,
  unsigned,
} from "./support";
import {
  connectRefused,
  givenStarters,
  ratedFour,
  redeliveredAndForged,
  retriedThenFailed,
  chatOrTokenRefused,
  nothingToShow,
  shownChannel,
  takenOver,
  textInReplyOut,
} from "./scenes";
import { bodyOf } from "../support/api";
import { slackButtonTap } from "../support/slack-events";
import { credentials, dm, envelope, nextTs, posted, SIGNING_SECRET, signed, slack, slackInbox } from "./slack-support";

describe("Slack", () => {
  it(
    "connects (auth.test), answers the url_verification challenge, takes a DM in and sends the " + "reply out",
    async () => {
      const { owner, token, inbox } = await slackInbox();
      const [check] = await slack.requests(token);
      expect(check).toMatchObject({
        method: "POST",
        path: "/api/auth.test",
        headers: { authorization: `Bearer ${token}` },
      });
      const webhookUrl = expect.stringMatching(new RegExp(`${inbox.path}$`));
      await shownChannel(owner, inbox.inboxId, { status: "connected", lastError: null, webhookUrl }, [
        token,
        SIGNING_SECRET,
      ]);

      const challenge = "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P";
      const handshake = await post(
        inbox.path,
        await signed({ token: "Jhj5dZrVaK7ZwHHjRyZWjbDl", challenge, type: "url_verification" }),
      );
      expect(handshake.status).toBe(200);
      expect(await handshake.json()).toEqual({ challenge });

      const event = dm("Where is my *parcel*?");
      const { conversation } = await textInReplyOut(owner, inbox, {
        platform: "slack",
        signed: await signed(event),
        text: "Where is my *parcel*?",
        eventId: `D024BE91L:${event.event.ts}`,
        platformMessageId: expect.stringMatching(/^\d+\.\d{6}$/),
        contact: { sourceId: "U2147483697", avatar: "https://avatars.slack-edge.com/2026-01-01/U2147483697_72.png" },
      });
      expect(conversation).toMatchObject({ type: "individual", contact: { name: "spengler" } });
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
    },
  );

  it(
    "a redelivery (X-Slack-Retry-Num) and the app_mention of a message make no second message; a bad signature " +
      "is 401 and stores nothing",
    async () => {
      const { owner, token, inbox } = await slackInbox();
      const ts = nextTs();
      const inChannel = { channel: "C024BE91L", user: "U2147483697", text: "<@U0BOTU5ER> hello", ts, event_ts: ts };
      const message = envelope({ type: "message", ...inChannel, channel_type: "channel" });
      const { conversation, fromContact } = await redeliveredAndForged(owner, inbox, {
        delivered: [
          await signed(message),
          // Slack tries again (no answer within 3 s, it says) with the same event_id and a new signature.
          await signed(message, { retryNum: 1, retryReason: "http_timeout" }),
          await signed(envelope({ type: "app_mention", ...inChannel })),
        ],
        forged: [
          await slack.sign({ signingSecret: "not-the-signing-secret", body: dm("forged") }),
          await signed(dm("replayed"), { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }),
          unsigned(dm("unsigned")),
        ],
      });
      expect(conversation.type).toBe("group");
      expect(conversation.title).toBe("#channel-e91l");
      expect(fromContact.map((m) => m.content)).toEqual(["hello"]);
      // In a channel the reply goes to the message's thread.
      expect((await eventually(async () => (await posted(token))[0])).body).toMatchObject({
        channel: "C024BE91L",
        thread_ts: ts,
      });
    },
  );

  it("a shared image is downloaded with the bot token into an attachment", async () => {
    const { owner, token, inbox } = await slackInbox();
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
      const { owner, token, inbox, sayDm } = await slackInbox();
      await givenStarters(owner, inbox.chatbotId, ["Opening hours?", "Prices?"]);
      await sayDm("Hi");
      const conversation = await onlyConversation(owner, inbox.inboxId);
      const answered = await messagesWhen(owner, conversation.id, lastIs("sent"));
      const [first] = await posted(token);
      expect(first.body.blocks![1].elements!.map((b) => b.value)).toEqual(["Opening hours?", "Prices?"]);

      const payload = slackButtonTap({
        channel: { id: "D024BE91L", name: "directmessage" },
        messageTs: answered[1].metadata!.channelDelivery!.platformMessageIds[0],
        value: "Prices?",
        actionTs: nextTs(),
      });
      expect((await post(inbox.path, await slack.sign({ signingSecret: SIGNING_SECRET, payload }))).status).toBe(200);
      const messages = await messagesWhen(owner, conversation.id, nthIs(3, "sent"));
      expect(messages.map((m) => [m.senderType, m.content])).toEqual([
        ["contact", "Hi"],
        ["chatbot", expect.any(String)],
        ["contact", "Prices?"],
        ["chatbot", 'You said: "Prices?".'],
      ]);
    },
  );

  it("after a takeover the assistant is silent and the person's reply is delivered", async () => {
    const { owner, token, inbox, sayDm } = await slackInbox();
    await takenOver(owner, inbox, sayDm, "Hi, this is **Sam** from Acme.");
    expect((await posted(token)).map((r) => r.body.text)).toEqual([
      "Hello! How can I help you today?",
      "Hi, this is *Sam* from Acme.",
    ]);
  });

  it('resolve posts the rating question; the answer "4" is kept as the rating, not as a message', async () => {
    const { owner, token, inbox, sayDm } = await slackInbox();
    await ratedFour(owner, inbox, sayDm, () => posted(token));
  });

  it(
    "a 429 is tried again after its Retry-After and delivered once; ok:false channel_not_found is failed with " +
      "Slack's words and not tried again",
    async () => {
      const { owner, token, inbox, sayDm } = await slackInbox();
      // The first exchange makes the contact (users.info), so what follows calls chat.postMessage only.
      await retriedThenFailed(owner, inbox, {
        say: sayDm,
        script: (responses) => slack.script(token, responses),
        rateLimited: { status: 429, headers: { "retry-after": "1" }, body: { ok: false, error: "ratelimited" } },
        // Slack refuses with HTTP 200 and ok: false.
        refused: { status: 200, body: { ok: false, error: "channel_not_found" } },
        error: "Slack answered channel_not_found",
        replies: () => posted(token),
      });
    },
  );

  it("a channel the bot left fails its reply only; a revoked token shows the channel failing", async () => {
    const { owner, token, inbox, sayDm } = await slackInbox();
    await chatOrTokenRefused(owner, inbox, {
      say: sayDm,
      script: (responses) => slack.script(token, responses),
      // Slack refuses with HTTP 200 and ok: false; token_revoked was a 400 like any other, the channel "connected".
      chatRefused: { status: 200, body: { ok: false, error: "is_archived" } },
      chatError: "Slack answered is_archived",
      tokenRefused: { status: 200, body: { ok: false, error: "token_revoked" } },
      tokenError: "Slack answered token_revoked",
    });
  });

  it("a reply that renders to nothing fails saying so, not with Slack's no_text", async () => {
    const { owner, token, inbox, sayDm } = await slackInbox();
    await nothingToShow(owner, inbox, sayDm, () => posted(token));
  });

  it("an event of another workspace the app is installed in is set aside, never this inbox's contact", async () => {
    const { owner, token, inbox, sayDm } = await slackInbox();
    // One Slack app serves every workspace that installed it: one signing secret, one events URL.
    const other = dm("Hello from another workspace");
    const elsewhere = {
      ...other,
      team_id: "T0OTHERTEAM",
      authorizations: other.authorizations.map((a) => ({ ...a, team_id: "T0OTHERTEAM" })),
    };
    expect((await post(inbox.path, await signed(elsewhere))).status).toBe(200);
    await eventually(async () => (await setAside(owner.organizationId, inbox.inboxId)).length === 1);
    expect(await setAside(owner.organizationId, inbox.inboxId)).toEqual([
      { error: "An event of the Slack workspace T0OTHERTEAM, not of the one connected (T061EG9R6)." },
    ]);
    expect(await conversationsOf(owner, inbox.inboxId)).toEqual([]);
    expect(await posted(token)).toEqual([]);
    // The connected workspace's own events come in as before.
    expect((await sayDm("Hello")).status).toBe(200);
    await onlyConversation(owner, inbox.inboxId);
  });

  it("a refused token fails connect with Slack's error code", async () => {
    const owner = await seedOwner();
    const inbox = await channelInbox(owner, "slack", credentials("revoked-token"), { connect: false });
    await connectRefused(owner, inbox.inboxId, "Slack answered invalid_auth");
    expect(await conversationsOf(owner, inbox.inboxId)).toEqual([]);
  });
});
