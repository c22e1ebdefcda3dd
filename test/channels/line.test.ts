// LINE end to end, against the Messaging API stand-in (test/support/platforms/line.mjs): webhook
// bodies in the shape of LINE's reference, signed by the stand-in with LINE's algorithm (line-support.ts).
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { data, db, seedOwner } from "../harness";
import { organizationShards } from "../../src/db/schema";
import { conversationObject } from "../../src/services/conversations";
import { uploadKey } from "../routes/attachments/support";
import { client } from "../../src/db/prepared";
import { bodyOf, problemOf } from "../support/api";
import {
  credentials,
  helloAnswered,
  helloTakenOver,
  hex,
  line,
  newLineInbox,
  messageEvent,
  newUser,
  ORIGIN,
  sent,
  signed,
  textEvent,
} from "./line-support";
import { connectRefused, givenStarters, redeliveredAndForged, shownChannel, textInReplyOut } from "./scenes";
import {
  channelInbox,
  conversationsOf,
  eventually,
  lastIs,
  messagesWhen,
  nthIs,
  onlyConversation,
  post,
  unsigned,
} from "./support";

describe("LINE", () => {
  it("connects (bot info, webhook URL set), takes a text in and answers with the reply API", async () => {
    const { owner, creds, inbox } = await newLineInbox();
    const token = creds.channelAccessToken;
    const [endpoint] = (await line.requests(token)).filter((r) => r.method === "PUT");
    expect(endpoint).toMatchObject({
      path: "/v2/bot/channel/webhook/endpoint",
      body: { endpoint: `${ORIGIN}${inbox.path}` },
    });
    expect(endpoint.headers.authorization).toBe(`Bearer ${token}`);
    await shownChannel(owner, inbox.inboxId, { status: "connected", lastError: null }, [token, creds.channelSecret]);

    const user = newUser();
    const event = textEvent(user, "Where is my parcel?");
    const { conversation } = await textInReplyOut(owner, inbox, {
      platform: "line",
      signed: await signed(creds.channelSecret, event),
      text: "Where is my parcel?",
      eventId: event.webhookEventId,
      platformMessageId: expect.stringMatching(/^\d+$/),
      contact: { sourceId: user, avatar: `https://profile.line-scdn.net/${user}` },
    });
    expect(conversation).toMatchObject({ type: "individual", contact: { name: `User ${user.slice(-6)}` } });
    const [reply] = await sent(token, "/v2/bot/message/reply");
    expect(reply.headers.authorization).toBe(`Bearer ${token}`);
    expect(reply.body).toEqual({
      replyToken: event.replyToken,
      messages: [{ type: "text", text: 'You said: "Where is my parcel?".' }],
    });
    // The loading animation showed while the assistant wrote.
    expect((await sent(token, "/v2/bot/chat/loading/start"))[0].body).toEqual({ chatId: user, loadingSeconds: 20 });
  });

  it("the assistant's conversation starters go under its first answer, in LINE quick replies", async () => {
    const { owner, creds, inbox } = await newLineInbox();
    const family = "👨‍👩‍👧‍👦"; // one grapheme of seven code points
    await givenStarters(owner, inbox.chatbotId, [
      "Opening hours?",
      "Where do you deliver in the Kanto region?",
      "🚚 Where is my parcel right now?",
      `${"x".repeat(19)}${family} and more`,
    ]);
    await post(inbox.path, await signed(creds.channelSecret, textEvent(newUser(), "Hello")));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, lastIs("sent"));
    const [reply] = await sent(creds.channelAccessToken, "/v2/bot/message/reply");
    expect(reply.body.messages![0].quickReply).toEqual({
      items: [
        { type: "action", action: { type: "message", label: "Opening hours?", text: "Opening hours?" } },
        {
          type: "action",
          action: { type: "message", label: "Where do you deliver", text: "Where do you deliver in the Kanto region?" },
        },
        // LINE counts an action's label in grapheme clusters: an emoji is one, never cut in two.
        {
          type: "action",
          action: { type: "message", label: "🚚 Where is my parcel", text: "🚚 Where is my parcel right now?" },
        },
        {
          type: "action",
          action: { type: "message", label: `${"x".repeat(19)}${family}`, text: `${"x".repeat(19)}${family} and more` },
        },
      ],
    });
  });

  it(
    "a redelivered event makes no second message; a wrong or missing signature is 401 and stores " + "nothing",
    async () => {
      const { owner, creds, inbox } = await newLineInbox();
      const event = textEvent(newUser(), "Hello");
      // LINE's redelivery: the same webhookEventId, flagged as redelivered.
      const again = { ...event, deliveryContext: { isRedelivery: true } };
      const { fromContact } = await redeliveredAndForged(owner, inbox, {
        delivered: [await signed(creds.channelSecret, event), await signed(creds.channelSecret, again)],
        forged: [
          await signed("not-the-channel-secret", textEvent(newUser(), "forged")),
          unsigned({ destination: "U0", events: [textEvent(newUser(), "unsigned")] }),
        ],
      });
      expect(fromContact).toHaveLength(1);
      // The console's "Verify" button: a signed body with no events, answered 200.
      expect((await post(inbox.path, await signed(creds.channelSecret))).status).toBe(200);
    },
  );

  it(
    "an image is downloaded from LINE's data API into an attachment; a group's message opens a group " + "conversation",
    async () => {
      const { owner, creds, inbox } = await newLineInbox();
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
      const inGroup = await messagesWhen(owner, grouped.id, lastIs("sent"));
      expect(inGroup[0]).toMatchObject({ content: "Hi all" });
      // The member's profile by the group's endpoint (a member need not be the bot's friend); no loading animation in a
      // group.
      expect(await sent(creds.channelAccessToken, `/v2/bot/group/${group}/member/${member}`)).toHaveLength(1);
      expect((await sent(creds.channelAccessToken, "/v2/bot/chat/loading/start")).map((r) => r.body.chatId)).toEqual([
        user,
      ]);
    },
  );

  it("a file shared from a host out of reach is said not received after a few attempts; the chat's next message " +
    "is not held back", async () => {
    const { owner, creds, inbox } = await newLineInbox();
    const user = newUser();
    // Shared from elsewhere (contentProvider "external"): fetched from its own host. On 127.0.0.1:19 nothing listens
    // (vitest.config.ts names it in OUTBOUND_ALLOWED_HOSTS): an unreachable host, as one down or timing out.
    const image = messageEvent(user, {
      type: "image",
      quoteToken: `q${hex(16)}`,
      contentProvider: {
        type: "external",
        originalContentUrl: "https://127.0.0.1:19/photo.jpg",
        previewImageUrl: "https://127.0.0.1:19/preview.jpg",
      },
    });
    const text = { ...textEvent(user, "Is this the right part?"), timestamp: image.timestamp + 1000 };
    expect((await post(inbox.path, await signed(creds.channelSecret, image, text))).status).toBe(200);

    const events = client(await data(owner.organizationId))
      .prepare("select status, attempts, error from channel_events where inbox_id = ? order by at")
      .bind(inbox.inboxId);
    type Row = { status: string; attempts: number; error: string | null };
    // Given up on the third attempt, as LINE's own content (intake.ts FILE_ATTEMPTS), not held back for a day.
    const after = await eventually(async () => {
      const rows = (await events.all<Row>()).results;
      const done = rows.length === 2 && (rows.every((r) => r.status === "stored") || rows[0].attempts >= 4);
      return done && rows;
    }, 90_000);
    expect(after.map((r) => [r.status, r.error])).toEqual([
      ["stored", null],
      ["stored", null],
    ]);
    expect(after[0].attempts).toBe(2);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(owner, conversation.id, (m) => m.length >= 2);
    expect(messages.filter((m) => m.senderType === "contact").map((m) => m.content)).toEqual([
      expect.stringMatching(/^\[image not received: could not reach 127\.0\.0\.1:19: .+\]$/),
      "Is this the right part?",
    ]);
  }, 120_000);

  it(
    "after a takeover the assistant is silent and the person's replies are delivered as plain text (reply, then " +
      "push)",
    async () => {
      const owner = await seedOwner();
      const { creds, inbox, user, conversation } = await helloTakenOver(owner);
      const question = textEvent(user, "Are you a bot?");
      await post(inbox.path, await signed(creds.channelSecret, question));
      await messagesWhen(owner, conversation.id, (m) => m.length === 3);
      // Taken in to the end (its reply token kept for the answer) before the person answers.
      const stored = client(await data(owner.organizationId))
        .prepare("select status from channel_events where inbox_id = ? and event_id = ?")
        .bind(inbox.inboxId, question.webhookEventId);
      await eventually(async () => (await stored.first<{ status: string }>())?.status === "stored");
      const content = "Hi, this is **Sam** from [Acme](https://acme.example).";
      const agent = await owner.fetch("POST", "/messages/outgoing/", { conversation: conversation.id, content });
      expect(agent.status, await agent.clone().text()).toBe(201);
      await messagesWhen(owner, conversation.id, lastIs("sent"));
      // The reply token went with the first answer to "Are you a bot?": a second one is pushed, with a retry key.
      expect(
        (
          await owner.fetch("POST", "/messages/outgoing/", {
            conversation: conversation.id,
            content: "Yes, a *person* now.",
          })
        ).status,
      ).toBe(201);
      const messages = await messagesWhen(owner, conversation.id, nthIs(4, "sent"));
      expect(messages.map((m) => m.senderType)).toEqual(["contact", "chatbot", "contact", "user", "user"]);
      const out = (await line.requests(creds.channelAccessToken)).filter((r) =>
        /^\/v2\/bot\/message\/(reply|push)$/.test(r.path),
      );
      expect(out.map((r) => [r.path, r.body.messages!.map((m) => m.text)])).toEqual([
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

  it("an agent's file goes out as a link to our copy; the sender looks only among the organization's", async () => {
    const owner = await seedOwner();
    const other = await seedOwner("other");
    // In one shard with the owner's organization, as many organizations are, so a lookup by id alone could find it.
    const shardOf = async (organizationId: string) =>
      (await db().select().from(organizationShards).where(eq(organizationShards.organizationId, organizationId)))[0];
    await db()
      .update(organizationShards)
      .set({ shard: (await shardOf(owner.organizationId)).shard })
      .where(eq(organizationShards.organizationId, other.organizationId));
    const { creds, conversation } = await helloTakenOver(owner);
    const token = creds.channelAccessToken;
    const attach = async (actor: typeof owner) =>
      bodyOf<"POST /attachments/">(
        await actor.fetch("POST", "/attachments/", { file: await uploadKey(actor), filename: "cat.png" }),
      );
    const [mine, theirs] = [await attach(owner), await attach(other)];
    const images = async () =>
      (await line.requests(token))
        .filter((r) => /^\/v2\/bot\/message\/(reply|push)$/.test(r.path))
        .flatMap((r) => r.body.messages!.filter((m) => m.type === "image"));

    const send = async (content: string) => {
      const res = await owner.fetch("POST", "/messages/outgoing/", {
        conversation: conversation.id,
        content,
        attachments: [{ id: mine.id }],
      });
      expect(res.status, await res.clone().text()).toBe(201);
      return bodyOf<"POST /messages/outgoing/">(res);
    };
    await send("Here is the file.");
    await messagesWhen(owner, conversation.id, nthIs(2, "sent"));
    expect(await images()).toHaveLength(1);

    // No API stores another organization's attachment in a message; one written so anyway (here while LINE has the
    // first try refused) is not looked up, so nothing of that organization goes out.
    await line.script(token, [
      { status: 429, headers: { "retry-after": "1" }, body: { message: "Too many requests" } },
    ]);
    const receipt = await send("And again.");
    const foreign = JSON.stringify([{ id: theirs.id, type: "image", filename: "cat.png", file: "" }]);
    await runInDurableObject(conversationObject(env, conversation.id), (_object, state) => {
      state.storage.sql.exec("UPDATE messages SET attachments = ? WHERE id = ?", foreign, receipt.id);
    });
    await messagesWhen(owner, conversation.id, nthIs(3, "sent"));
    expect(await images()).toHaveLength(1);
    const out = JSON.stringify(await images());
    expect(out).toContain(`/uploads/${owner.organizationId}/`);
    const sentAll = JSON.stringify((await line.requests(token)).filter((r) => /\/message\//.test(r.path)));
    expect(sentAll).toContain("And again.");
    expect(sentAll).not.toContain(other.organizationId);
  });

  it(
    "a 429 is tried again after its Retry-After and delivered once; a 400 is failed with LINE's words and not " +
      "tried again",
    async () => {
      const owner = await seedOwner();
      const { creds, inbox, user, conversation } = await helloAnswered(owner);
      const token = creds.channelAccessToken;
      const before = (await line.requests(token)).length;

      // The contact is known now: the next requests are the loading animation, then the reply.
      await line.script(token, [
        { status: 202, body: {} },
        { status: 429, headers: { "retry-after": "1" }, body: { message: "Too many requests" } },
      ]);
      const started = Date.now();
      await post(inbox.path, await signed(creds.channelSecret, textEvent(user, "Are you there?")));
      const messages = await messagesWhen(owner, conversation.id, nthIs(3, "sent"));
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
      const failed = await messagesWhen(owner, conversation.id, nthIs(5, "failed"));
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
    const detail =
      "LINE answered 400: The request body has 1 error(s) (endpoint: Invalid webhook endpoint URL). LINE takes only " +
      `an https webhook URL, and this one is http://localhost/channels/line/${local.inboxId}: connect through the ` +
      "https address LINE will reach (your deployment, or a tunnel to this machine).";
    await connectRefused(owner, local.inboxId, detail);

    const creds = credentials();
    const revoked = await channelInbox(owner, "line", creds, { connect: false });
    const unauthorized = {
      message: "Authentication failed. Confirm that the access token in the authorization header is valid.",
    };
    await line.script(creds.channelAccessToken, [{ status: 401, body: unauthorized }]);
    const refused = await owner.fetch("POST", `/inboxes/${revoked.inboxId}/channel/connect/`);
    expect(await problemOf(refused)).toMatchObject({
      code: "channel_connect_failed",
      detail: expect.stringMatching(
        /^LINE answered 401: Authentication failed.*valid\. Check channelSecret and channelAccessToken: copy them /,
      ),
    });
  });
});
