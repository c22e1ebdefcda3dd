import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { NO_SUCH_ID, conversationData, countInParts, expectError, seedOwner } from "../../harness";
import { client as d1Of } from "../../../src/db/prepared";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { chunksOf, liveEvents, readEvents, storedReply, type StreamEvent } from "../../support/sse";
import { signVisitorToken } from "../../../src/services/widget/tokens";
import { client, pub, seedWebChat, startSession } from "./fixtures";
import { bodyOf, type Schemas } from "../../support/api";
import { objectMessages } from "../../support/object-messages";
import { createChatbot } from "../../fixtures/chatbots";

/** A visitor's send streams back like a completion, with the public record of the reply. */
type Reply = StreamEvent<Schemas["WidgetMessage"]>;

async function send(webChatId: string, token: string, body: Record<string, unknown>, c = client()) {
  const res = await c.post(pub(webChatId, "messages/"), body, token);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get("Content-Type")).toContain("text/event-stream");
  return res;
}

describe("POST /web-chats/{id}/public/messages/", () => {
  it("starts a conversation in the web chat's inbox and streams the answer with numbered events", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const session = await startSession(chat.id);
    const res = await send(chat.id, session.token, {
      content: "Where is my parcel?",
      metadata: { timeZone: "Europe/Paris", location: { latitude: 1, longitude: 2 } },
    });
    const raw = await res.clone().text();
    const events = await readEvents<Reply>(res);
    const done = storedReply(events);
    expect(done.done).toBe(true);
    expect(done.message).toMatchObject({
      role: "assistant",
      content: 'You said: "Where is my parcel?".',
      citations: [],
    });
    expect(JSON.stringify(done.message)).not.toContain(chat.bot.id);
    const deltas = chunksOf(events)
      .slice(0, -1)
      .map((e) => e.content)
      .join("");
    expect(deltas).toBe(done.message.content);
    // Every reply event names the message and the characters sent so far.
    const ids = [...raw.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
    expect(ids.at(-1)).toBe(`${done.messageId}:done`);
    expect(ids.at(-2)).toBe(`${done.messageId}:${done.message.content.length}`);

    const stored = await d1Of(await conversationData(owner.organizationId, done.conversationId))
      .prepare("SELECT inbox_id, contact_id, chatbot_id FROM conversations WHERE id = ?")
      .bind(done.conversationId)
      .first();
    expect(stored).toEqual({ inbox_id: chat.inboxId, contact_id: session.contact.id, chatbot_id: chat.bot.id });
    const [incoming] = await objectMessages<{ metadata: string }>(done.conversationId, "type = 'incoming'");
    // enableLocation is off: the position is not kept.
    expect(JSON.parse(incoming!.metadata)).toEqual({ timeZone: "Europe/Paris", channel: "web_chat" });
    // The visitor's contact has no field of the service's among the business's custom fields.
    const contact = await bodyOf<"GET /contacts/{id}/">(await owner.fetch("GET", `/contacts/${session.contact.id}/`));
    expect(contact.metadata).toEqual({});

    // The visitor's conversations and history.
    const list = await bodyOf<"GET /web-chats/{id}/public/conversations/">(
      await client().get(pub(chat.id, "conversations/"), session.token),
    );
    expect(list.results.map((c) => c.id)).toEqual([done.conversationId]);
    const history = await bodyOf<"GET /web-chats/{id}/public/conversations/{conversationId}/messages/">(
      await client().get(pub(chat.id, `conversations/${done.conversationId}/messages/`), session.token),
    );
    expect(history.results.map((m) => m.role)).toEqual(["visitor", "assistant"]);
    expect(history.hasMore).toBe(false);
    // A second message continues it, in order.
    const next = storedReply(
      await readEvents<Reply>(
        await send(chat.id, session.token, { conversation: done.conversationId, content: "and now?" }),
      ),
    );
    expect(next.conversationId).toBe(done.conversationId);
    const page = await bodyOf<"GET /web-chats/{id}/public/conversations/{conversationId}/messages/">(
      await client().get(pub(chat.id, `conversations/${done.conversationId}/messages/?pageSize=2`), session.token),
    );
    expect(page.results.map((m) => m.sequence)).toEqual([3, 4]);
    expect(page.hasMore).toBe(true);
  });

  it("keeps the position when enableLocation is on", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, { enableAnonymous: true, enableLocation: true });
    const session = await startSession(chat.id);
    const done = storedReply(
      await readEvents<Reply>(
        await send(chat.id, session.token, { content: "hi", metadata: { location: { latitude: 1.5, longitude: 2 } } }),
      ),
    );
    const [incoming] = await objectMessages<{ metadata: string }>(done.conversationId, "type = 'incoming'");
    expect(JSON.parse(incoming!.metadata).location).toEqual({ latitude: 1.5, longitude: 2 });
  });

  it("never shows or continues another visitor's conversation (404)", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const alice = await startSession(chat.id);
    const bob = await startSession(chat.id);
    const done = storedReply(await readEvents<Reply>(await send(chat.id, alice.token, { content: "secret order 42" })));
    await expectNotFound(await client().get(pub(chat.id, `conversations/${done.conversationId}/messages/`), bob.token));
    await expectError(
      await client().post(
        pub(chat.id, "messages/"),
        { conversation: done.conversationId, content: "mine now" },
        bob.token,
      ),
      404,
      "not_found",
    );
    await expectNotFound(
      await client().post(pub(chat.id, `messages/${done.messageId}/feedback/`), { feedback: "dislike" }, bob.token),
    );
    expect(
      (
        await bodyOf<"GET /web-chats/{id}/public/conversations/">(
          await client().get(pub(chat.id, "conversations/"), bob.token),
        )
      ).results,
    ).toEqual([]);
    // A token of one web chat is refused by another, even of the same organization.
    const other = await seedWebChat(owner);
    await expectError(await client().get(pub(other.id, "conversations/"), alice.token), 401, "not_authenticated");
    // Unknown conversation ids are 404 too.
    await expectNotFound(await client().get(pub(chat.id, `conversations/${NO_SUCH_ID}/messages/`), alice.token));
    await expectNotFound(await client().get(pub(chat.id, "conversations/nope/messages/"), alice.token));
  });

  it("refuses missing, forged and expired tokens, and bad input, writing nothing", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const session = await startSession(chat.id);
    await expectError(await client().post(pub(chat.id, "messages/"), { content: "hi" }), 401, "not_authenticated");
    await expectError(
      await client().post(pub(chat.id, "messages/"), { content: "hi" }, `${session.token}x`),
      401,
      "not_authenticated",
    );
    const expired = await signVisitorToken(
      { w: chat.id, c: session.contact.id, exp: Math.floor(Date.now() / 1000) - 1 },
      env.ENCRYPTION_KEY,
    );
    await expectError(
      await client().post(pub(chat.id, "messages/"), { content: "hi" }, expired),
      401,
      "not_authenticated",
    );
    for (const body of [
      {},
      { content: "" },
      { content: "   " },
      { content: 5 },
      { content: "x".repeat(32_001) },
      { content: "hi", conversation: "nope" },
      { content: "hi", metadata: { location: { latitude: 91, longitude: 0 } } },
    ]) {
      await expectError(await client().post(pub(chat.id, "messages/"), body, session.token), 400, "invalid");
    }
    expect(await countInParts(owner.organizationId, "conversations", "contact_id = ?", session.contact.id)).toBe(0);
  });

  it("stores a lone surrogate a visitor sends (half an emoji) as one U+FFFD, not as three", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const c = client();
    const session = await startSession(chat.id, { contact: { name: "Ada \ud83d" } }, c);
    expect(session.contact.name).toBe("Ada \uFFFD");
    const id = /"conversationId":"([^"]+)"/.exec(
      await (await send(chat.id, session.token, { content: "ok \ud83d" }, c)).text(),
    )![1];
    const history = await bodyOf<"GET /web-chats/{id}/public/conversations/{conversationId}/messages/">(
      await c.get(pub(chat.id, `conversations/${id}/messages/`), session.token),
    );
    const list = await bodyOf<"GET /web-chats/{id}/public/conversations/">(
      await c.get(pub(chat.id, "conversations/"), session.token),
    );
    // Kept as it came, it was stored as "ok \uFFFD\uFFFD\uFFFD" (one per byte of its encoding), title too.
    expect({ content: history.results[0].content, title: list.results[0].title }).toEqual({
      content: "ok \uFFFD",
      title: "ok \uFFFD",
    });
  });
});

describe("feedback, sharing and resuming", () => {
  it("records a like on an answer, and only on answers", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const session = await startSession(chat.id);
    const done = storedReply(await readEvents<Reply>(await send(chat.id, session.token, { content: "hello" })));
    const res = await client().post(
      pub(chat.id, `messages/${done.messageId}/feedback/`),
      { feedback: "like" },
      session.token,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ id: done.messageId, feedback: "like" });
    const record = await bodyOf<"GET /messages/{id}/">(
      await owner.fetch("GET", `/messages/${done.messageId}/?conversation=${done.conversationId}`),
    );
    expect(record.feedback).toBe("like");
    await expectError(
      await client().post(pub(chat.id, `messages/${done.messageId}/feedback/`), { feedback: "love" }, session.token),
      400,
      "invalid",
    );
    const [incoming] = (
      await bodyOf<"GET /web-chats/{id}/public/conversations/{conversationId}/messages/">(
        await client().get(pub(chat.id, `conversations/${done.conversationId}/messages/`), session.token),
      )
    ).results;
    await expectNotFound(
      await client().post(pub(chat.id, `messages/${incoming.id}/feedback/`), { feedback: "like" }, session.token),
    );
  });

  it(
    "a second dislike since the last handoff hands the conversation to a person; a like or a taken-back dislike " +
      "does not",
    async () => {
      const owner = await seedOwner();
      const chat = await seedWebChat(owner);
      const session = await startSession(chat.id);
      const rate = (messageId: string | null, feedback: string | null) =>
        client().post(pub(chat.id, `messages/${messageId}/feedback/`), { feedback }, session.token);
      const first = storedReply(
        await readEvents<Reply>(await send(chat.id, session.token, { content: "Where is my parcel?" })),
      );
      const conversation = first.conversationId;
      const second = storedReply(
        await readEvents<Reply>(await send(chat.id, session.token, { conversation, content: "It was due Monday" })),
      );
      const state = async () =>
        await bodyOf<"GET /conversations/{id}/">(await owner.fetch("GET", `/conversations/${conversation}/`));
      expect((await rate(first.messageId, "dislike")).status).toBe(200);
      expect((await rate(first.messageId, null)).status).toBe(200);
      expect((await rate(second.messageId, "dislike")).status).toBe(200);
      expect((await rate(first.messageId, "like")).status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(await state()).toMatchObject({ progressStatus: "ai_processing", autoReplyEnabled: true });

      expect((await rate(first.messageId, "dislike")).status).toBe(200);
      await expect.poll(async () => (await state()).progressStatus).toBe("waiting_for_human");
      expect(await state()).toMatchObject({ status: "queued", autoReplyEnabled: false });
      const messages = (
        await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${conversation}&pageSize=100`))
      ).results.sort((a, b) => a.sequence - b.sequence);
      expect(messages.at(-1)).toMatchObject({
        senderType: "chatbot",
        content: "I'll pass you to a member of our team, who will reply here as soon as they can.",
        contentPayload: { handoff: { reason: "unanswered", trigger: "dislikes" } },
      });
      // Once handed off, more dislikes say nothing again.
      expect((await rate(first.messageId, "dislike")).status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(
        (
          await bodyOf<"GET /messages/">(
            await owner.fetch("GET", `/messages/?conversation=${conversation}&pageSize=100`),
          )
        ).results,
      ).toHaveLength(messages.length);
    },
  );

  it("says the outside-hours message and keeps the next opening, as every other handoff does", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, { handoff: { outsideHoursMessage: "Closed; back at nine." } });
    const chat = await seedWebChat(owner, { enableAnonymous: true }, bot);
    // Never open: every moment is outside business hours.
    const closed = { timeZone: "UTC", weekly: {}, holidays: [] };
    expect((await owner.fetch("PATCH", `/inboxes/${chat.inboxId}/`, { businessHours: closed })).status).toBe(200);
    const session = await startSession(chat.id);
    const said = async (body: Record<string, unknown>) =>
      storedReply(await readEvents<Reply>(await send(chat.id, session.token, body)));
    const first = await said({ content: "Where is my parcel?" });
    const conversation = first.conversationId;
    const second = await said({ conversation, content: "It was due Monday" });
    const rate = (messageId: string | null) =>
      client().post(pub(chat.id, `messages/${messageId}/feedback/`), { feedback: "dislike" }, session.token);
    expect((await rate(first.messageId)).status).toBe(200);
    expect((await rate(second.messageId)).status).toBe(200);
    const handoffOf = async () =>
      (
        await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${conversation}&pageSize=100`))
      ).results.find((m) => (m.contentPayload as { handoff?: unknown } | null)?.handoff);
    await expect.poll(handoffOf).toBeDefined();
    const handoff = await handoffOf();
    // The turn's handoffs say the outside-hours message, with the next opening (none: hours that never open).
    expect(handoff?.content).toBe("Closed; back at nine.");
    expect(handoff?.contentPayload).toMatchObject({
      handoff: { reason: "unanswered", trigger: "dislikes", outsideHours: true, nextOpeningAt: null },
    });
  });

  it("shows the visitor the Idempotency-Key of their send, on their own messages only, never in a share", async () => {
    // A second tab's same words must not pass for this tab's message (widget/src/live-view.ts, claimed).
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, { enableShareConversation: true });
    const session = await startSession(chat.id);
    const key = crypto.randomUUID();
    const visitor = client();
    const sent = await visitor.post(pub(chat.id, "messages/"), { content: "Yes" }, session.token, {
      "Idempotency-Key": key,
    });
    const done = storedReply(await readEvents<Reply>(sent));
    expect(done.message.idempotencyKey).toBeNull(); // the assistant's reply
    const id = done.conversationId;
    const live = liveEvents<{ event: string; data: Schemas["WidgetMessage"] }>(
      await visitor.get(pub(chat.id, `conversations/${id}/events/`), session.token),
    );
    await live.next((e) => e.event === "replying");
    await send(chat.id, session.token, { conversation: id, content: "Yes" }); // no key: none shown
    expect((await live.next((e) => e.event === "message")).data).toMatchObject({
      role: "visitor",
      content: "Yes",
      idempotencyKey: null,
    });
    await live.close();
    const history = await bodyOf<"GET /web-chats/{id}/public/conversations/{conversationId}/messages/">(
      await visitor.get(pub(chat.id, `conversations/${id}/messages/`), session.token),
    );
    expect(history.results.map((m) => [m.role, m.idempotencyKey])).toEqual([
      ["visitor", key],
      ["assistant", null],
      ["visitor", null],
      ["assistant", null],
    ]);
    const { share } = await bodyOf<"POST /web-chats/{id}/public/conversations/{conversationId}/share/">(
      await visitor.post(pub(chat.id, `conversations/${id}/share/`), {}, session.token),
    );
    const shared = await bodyOf<"GET /web-chats/{id}/public/shared/{share}/">(
      await client().get(pub(chat.id, `shared/${share}/`)),
    );
    expect(shared.results.map((m) => m.idempotencyKey)).toEqual([null, null, null, null]);
  });

  it("shares a conversation read-only when enableShareConversation is on", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const session = await startSession(chat.id);
    const done = storedReply(await readEvents<Reply>(await send(chat.id, session.token, { content: "share me" })));
    await expectDenied(
      await client().post(pub(chat.id, `conversations/${done.conversationId}/share/`), {}, session.token),
    );
    await owner.fetch("PATCH", `/web-chats/${chat.id}/`, { enableShareConversation: true });
    const res = await client().post(pub(chat.id, `conversations/${done.conversationId}/share/`), {}, session.token);
    expect(res.status, await res.clone().text()).toBe(200);
    const { url, share } = await bodyOf<"POST /web-chats/{id}/public/conversations/{conversationId}/share/">(res);
    expect(url).toContain(`/chat/${chat.id}/?share=`);
    const shared = await bodyOf<"GET /web-chats/{id}/public/shared/{share}/">(
      await client().get(pub(chat.id, `shared/${share}/`)),
    );
    expect(shared.title).toBe("share me");
    expect(shared.results).toHaveLength(2);
    // The trailing slash is optional here too, though the share's last segment holds a dot (CONTRACT section 1).
    const bare = await client().get(pub(chat.id, `shared/${share}`));
    expect(bare.status, await bare.clone().text()).toBe(200);
    await expectNotFound(await client().get(pub(chat.id, `shared/${share.slice(0, -2)}xx/`)));
  });

  it("resumes a finished reply from the last event seen, without repeating text", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const session = await startSession(chat.id);
    const done = storedReply(
      await readEvents<Reply>(await send(chat.id, session.token, { content: "Tell me about the weather in Paris" })),
    );
    const res = await client().get(pub(chat.id, `conversations/${done.conversationId}/stream/`), session.token, {
      "Last-Event-ID": `${done.messageId}:5`,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const events = await readEvents<Reply>(res);
    expect(
      chunksOf(events)
        .map((e) => e.content)
        .join(""),
    ).toBe(done.message.content.slice(5));
    expect(storedReply(events).message.content).toBe(done.message.content);
    await expectError(
      await client().get(pub(chat.id, `conversations/${done.conversationId}/stream/`), session.token, {
        "Last-Event-ID": "garbage",
      }),
      400,
      "invalid",
    );
    await expectError(
      await client().get(pub(chat.id, `conversations/${done.conversationId}/stream/`), session.token, {
        "Last-Event-ID": `${NO_SUCH_ID}:0`,
      }),
      404,
      "not_found",
    );
  });
});
