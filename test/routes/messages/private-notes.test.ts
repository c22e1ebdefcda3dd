// Private notes (`POST /messages/outgoing/` with `private: true`): the team sees them in the
// transcript; the visitor (widget history, live stream, replay), a messaging channel and message
// webhooks never do, and the conversation is left as it was.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { liveEvents } from "../../support/sse";
import { pub, visitorConversation } from "../widget/fixtures";
import { channelInbox, eventually, messagesWhen, onlyConversation, post, standIn } from "../../channels/support";
import { bodyOf, problemOf, type Schemas } from "../../support/api";
import { objectMessages } from "../../support/object-messages";

type Message = Schemas["Message"];

/** A visitor's conversation with one exchange (their message, the assistant's reply), still served by the assistant. */
async function notedConversation(owner: Actor) {
  const { chat, visitor, session, id } = await visitorConversation(owner, { content: "Where is my parcel?" });
  const history = async () =>
    (
      await bodyOf<"GET /web-chats/{id}/public/conversations/{conversationId}/messages/">(
        await visitor.get(pub(chat.id, `conversations/${id}/messages/`), session.token),
      )
    ).results;
  const open = (headers: Record<string, string> = {}) =>
    visitor.get(pub(chat.id, `conversations/${id}/events/`), session.token, headers);
  const messages = async () =>
    (
      await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${id}&pageSize=100`))
    ).results.sort((a, b) => a.sequence - b.sequence);
  const conversation = async () =>
    await bodyOf<"GET /conversations/{id}/">(await owner.fetch("GET", `/conversations/${id}/`));
  await eventually(async () => (await messages()).length === 2);
  return { chat, visitor, session, id, history, open, messages, conversation };
}

const note = (owner: Actor, conversation: string, content: string, extra: Record<string, unknown> = {}) =>
  owner.fetch("POST", "/messages/outgoing/", { conversation, content, private: true, ...extra });

describe("private notes", () => {
  it(
    "are stored for the team (private: true) and leave the conversation as it was: the assistant keeps serving " + "it",
    async () => {
      const owner = await seedOwner();
      const { id, messages, conversation, chat, visitor, session } = await notedConversation(owner);
      const before = await conversation();
      expect(before).toMatchObject({ status: "open", progressStatus: "ai_processing", autoReplyEnabled: true });

      const res = await note(owner, id, "Customer is a VIP, be nice.");
      expect(res.status, await res.clone().text()).toBe(201);
      const record = await res.json<Message>();
      expect(record).toMatchObject({
        type: "outgoing",
        senderType: "user",
        content: "Customer is a VIP, be nice.",
        private: true,
        sequence: 3,
      });

      const listed = await messages();
      expect(listed.map((m) => [m.content, m.private])).toEqual([
        ["Where is my parcel?", false],
        ['You said: "Where is my parcel?".', false],
        ["Customer is a VIP, be nice.", true],
      ]);
      const one = await bodyOf<"GET /messages/{id}/">(
        await owner.fetch("GET", `/messages/${record.id}/?conversation=${id}`),
      );
      expect(one.private).toBe(true);

      const after = await conversation();
      expect(after).toMatchObject({
        status: before.status,
        progressStatus: before.progressStatus,
        autoReplyEnabled: true,
        lastMessage: before.lastMessage,
        lastMessageCreatedAt: before.lastMessageCreatedAt,
      });

      // The assistant still answers the visitor's next message: the note did not take the conversation over.
      await visitor.post(pub(chat.id, "messages/"), { content: "still there?", conversation: id }, session.token);
      const later = await eventually(async () => {
        const all = await messages();
        return all.length === 5 && all;
      });
      expect(later.map((m) => m.senderType)).toEqual(["contact", "chatbot", "user", "contact", "chatbot"]);
      expect((await conversation()).lastMessage).toBe('You said: "still there?".');

      // A reply that is not a note has private: false and takes the conversation over, as before.
      const reply = await bodyOf<"POST /messages/outgoing/">(
        await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Hi, Sam here." }),
      );
      expect(reply.private).toBe(false);
      expect(await conversation()).toMatchObject({ progressStatus: "human_serving", lastMessage: "Hi, Sam here." });
      await note(owner, id, "Handled by Sam.");
      expect((await conversation()).lastMessage).toBe("Hi, Sam here.");
    },
  );

  it("never reach the visitor: not in the widget's history, its live stream or a replay (Last-Event-ID)", async () => {
    const owner = await seedOwner();
    const { id, history, open } = await notedConversation(owner);
    const [hello] = await history();
    await owner.fetch("POST", `/conversations/${id}/take-over/`);

    const live = liveEvents(await open());
    expect((await note(owner, id, "secret: refund approved internally")).status).toBe(201);
    expect(
      (await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Your refund is on its way." }))
        .status,
    ).toBe(201);
    // The first message event after the note is the public reply: the note was never sent.
    const next = await live.next((e) => e.event === "message");
    expect(next.data).toMatchObject({ role: "agent", content: "Your refund is on its way." });
    await live.close();

    const shown = await history();
    expect(shown.map((m) => m.content)).toEqual([
      "Where is my parcel?",
      'You said: "Where is my parcel?".',
      "Your refund is on its way.",
    ]);
    expect(JSON.stringify(shown)).not.toContain("secret");

    const replay = liveEvents(await open({ "Last-Event-ID": hello.id }));
    const replayed = [await replay.next((e) => e.event === "message"), await replay.next((e) => e.event === "message")];
    expect(replayed.map((e) => e.data.content)).toEqual([
      'You said: "Where is my parcel?".',
      "Your refund is on its way.",
    ]);
    await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Anything else?" });
    expect((await replay.next((e) => e.event === "message")).data).toMatchObject({ content: "Anything else?" });
    await replay.close();
  });

  it("never reach an outgoing message webhook", async () => {
    const owner = await seedOwner();
    const { id, chat } = await notedConversation(owner);
    const hook = await bodyOf<"POST /inboxes/{inboxId}/webhooks/">(
      await owner.fetch("POST", `/inboxes/${chat.inboxId}/webhooks/`, {
        name: "CRM",
        direction: "outgoing",
        url: `${env.TEST_RECEIVER_URL}/ok/notes`,
      }),
    );
    await owner.fetch("POST", `/conversations/${id}/take-over/`);
    expect((await note(owner, id, "internal only")).status).toBe(201);
    expect(
      (await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "public reply" })).status,
    ).toBe(201);
    const records = await eventually(async () => {
      const page = await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/records/">(
        await owner.fetch("GET", `/inboxes/${chat.inboxId}/webhooks/${hook.id}/records/`),
      );
      return page.results.some((r) => r.requestBody?.includes("public reply")) && page.results;
    });
    expect(records).toHaveLength(1);
    expect(JSON.stringify(records)).not.toContain("internal only");
  });

  it("never reach a messaging channel (Telegram)", async () => {
    const telegram = standIn("telegram");
    const owner = await seedOwner();
    const token = `${Math.floor(Math.random() * 1e9)}:AAHnotes${Date.now()}`;
    const inbox = await channelInbox(owner, "telegram", { botToken: token });
    const from = { id: 5557788, first_name: "Olivia", is_bot: false };
    const update = {
      update_id: Math.floor(Math.random() * 1e8),
      message: {
        message_id: 1,
        from,
        chat: { id: from.id, type: "private", first_name: "Olivia" },
        date: Math.floor(Date.now() / 1000),
        text: "Where is my parcel?",
      },
    };
    expect((await post(inbox.path, await telegram.sign({ token, update }))).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.some((x) => x.metadata?.channelDelivery?.status === "sent"));
    const sent = async () => (await telegram.requests(token)).filter((r) => r.path === `/bot${token}/sendMessage`);
    expect(await sent()).toHaveLength(1);

    expect((await note(owner, conversation.id, "note for the team")).status).toBe(201);
    expect(
      (await owner.fetch("POST", "/messages/outgoing/", { conversation: conversation.id, content: "Sam here." }))
        .status,
    ).toBe(201);
    const after = await eventually(async () => {
      const all = await sent();
      return all.length >= 2 && all;
    });
    // Delivered in order: the public reply right after the assistant's, and nothing for the note.
    await messagesWhen(
      owner,
      conversation.id,
      (m) => m.filter((x) => x.metadata?.channelDelivery?.status === "sent").length === 2,
    );
    const total = await sent();
    expect(total).toHaveLength(2);
    expect(after.map((r) => r.body.text)).toEqual(['You said: "Where is my parcel?".', "Sam here."]);
    expect(JSON.stringify(total)).not.toContain("note for the team");
  });

  it(
    "400 for a private that is not a boolean (nothing written); 401; 403 without conversation.manage; 404 for " +
      "another organization's conversation",
    async () => {
      const owner = await seedOwner();
      const other = await seedOwner();
      const { id } = await notedConversation(owner);
      const count = async () => (await objectMessages(id)).length;
      const before = await count();
      for (const value of ["yes", 1, null]) {
        const res = await owner.fetch("POST", "/messages/outgoing/", {
          conversation: id,
          content: "x",
          private: value,
        });
        await expectError(res, 400, "invalid");
      }
      const bad = await problemOf(
        await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "x", private: "yes" }),
      );
      expect(bad.detail).toContain("private");
      expect(await count()).toBe(before);
      await expectError(
        await call("POST", "/api/v1/messages/outgoing/", { conversation: id, content: "x", private: true }),
        401,
      );
      const viewer = await seedMember(owner, ["conversation.view"]);
      await expectError(await note(viewer, id, "x"), 403, "permission_denied");
      await expectError(await note(other, id, "x"), 404);
      expect(await count()).toBe(before);
    },
  );
});
