// Messaging channels and the human side's extras: an operator's typing shows the platform's typing
// action; resolving asks the visitor for a rating with the platform's buttons, and the answer (a
// Telegram callback, a LINE quick reply's text) is kept as the conversation's rating, not a message.
import { describe, expect, it } from "vitest";
import { seedOwner } from "../harness";
import { bodyOf } from "../support/api";
import { helloTakenOver, sent as lineSent, signed, textEvent } from "./line-support";
import {
  contactLines,
  conversationsOf,
  csatOf,
  eventually,
  messagesOf,
  messagesWhen,
  onlyConversation,
  post,
  someSent,
} from "./support";
import { callbackQuery, sent, telegramInbox, textUpdate, type TelegramUser } from "./telegram-support";

const QUESTION = /How would you rate this conversation\?/;

describe("Telegram: typing and the rating question", () => {
  const from: TelegramUser = { id: 7001000 + Math.floor(Math.random() * 1000), first_name: "Olivia" };
  const callback = (data: string) => callbackQuery(data, from);

  it(
    "operator typing sends the typing action; resolve asks with csat:1..5 buttons; the callback is the rating, " +
      "once",
    async () => {
      const { owner, token, inbox, postUpdate } = await telegramInbox();
      await postUpdate(textUpdate("Where is my parcel?", from));
      const conversation = await onlyConversation(owner, inbox.inboxId);
      await messagesWhen(owner, conversation.id, someSent);
      await owner.fetch("POST", `/conversations/${conversation.id}/take-over/`);

      const actions = (await sent(token, "sendChatAction")).length;
      expect((await owner.fetch("POST", `/conversations/${conversation.id}/typing/`, { typing: true })).status).toBe(
        204,
      );
      const typed = await eventually(async () => (await sent(token, "sendChatAction")).slice(actions)[0]);
      expect(typed.body).toMatchObject({ chat_id: String(from.id), action: "typing" });
      // Stopping asks nothing of Telegram (its action lapses by itself).
      await owner.fetch("POST", `/conversations/${conversation.id}/typing/`, { typing: false });

      const resolved = await owner.fetch("POST", `/conversations/${conversation.id}/resolve/`);
      expect(await resolved.json()).toMatchObject({ status: "resolved", csat: null });
      const ask = await eventually(async () =>
        (await sent(token, "sendMessage")).find((r) => QUESTION.test(String(r.body.text))),
      );
      expect(ask.body.reply_markup).toEqual({
        inline_keyboard: [["1", "2", "3", "4", "5"].map((n) => ({ text: n, callback_data: `csat:${n}` }))],
      });
      const asked = await messagesOf(owner, conversation.id);
      expect(asked.at(-1)).toMatchObject({
        type: "outgoing",
        senderType: "chatbot",
        content: expect.stringMatching(QUESTION),
      });
      expect(
        (await bodyOf<"GET /conversations/{id}/">(await owner.fetch("GET", `/conversations/${conversation.id}/`)))
          .status,
      ).toBe("resolved");
      // Resolving again without a word since does not ask twice.
      await owner.fetch("POST", `/conversations/${conversation.id}/resolve/`);

      expect((await postUpdate(callback("csat:4"))).status).toBe(200);
      expect(await eventually(() => csatOf(owner, conversation.id))).toMatchObject({ rating: 4, comment: null });
      // The tap is answered, so the visitor's button stops spinning.
      const answered = await eventually(
        async () => (await sent(token, "answerCallbackQuery")).length > 0 && sent(token, "answerCallbackQuery"),
      );
      expect(answered.map((r) => r.body.callback_query_id)).toHaveLength(1);
      expect(await messagesOf(owner, conversation.id)).toHaveLength(asked.length);
      expect(await conversationsOf(owner, inbox.inboxId)).toHaveLength(1);

      // Answered: a later "5" is the visitor's new question (a new conversation), the rating stays.
      await postUpdate(textUpdate("5", from));
      const conversations = await eventually(async () => {
        const all = await conversationsOf(owner, inbox.inboxId);
        return all.length === 2 && all;
      });
      expect((await messagesOf(owner, conversations.find((c) => c.id !== conversation.id)!.id))[0]).toMatchObject({
        senderType: "contact",
        content: "5",
      });
      expect(await csatOf(owner, conversation.id)).toMatchObject({ rating: 4 });
      expect((await sent(token, "sendMessage")).filter((r) => QUESTION.test(String(r.body.text)))).toHaveLength(1);
    },
  );

  it("the question is in the visitor's language (here Traditional Chinese), as the handoff message is", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    await postUpdate(textUpdate("請問我的包裹在哪裡？", from));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, someSent);
    await owner.fetch("POST", `/conversations/${conversation.id}/resolve/`);
    const question = "您對這次對話的滿意度如何？請回覆 1（很差）到 5（很好）的數字。";
    const ask = await eventually(async () => (await sent(token, "sendMessage")).find((r) => r.body.text === question));
    expect(ask.body.reply_markup!.inline_keyboard[0]).toHaveLength(5);
    expect((await messagesOf(owner, conversation.id)).at(-1)).toMatchObject({
      senderType: "chatbot",
      content: question,
    });
  });

  /** A conversation taken over, resolved and asked for its rating, then given the agent's wrap-up note. */
  const askedThenNoted = async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    await postUpdate(textUpdate("Where is my parcel?", from));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, someSent);
    await owner.fetch("POST", `/conversations/${conversation.id}/take-over/`);
    expect((await owner.fetch("POST", `/conversations/${conversation.id}/resolve/`)).status).toBe(200);
    await eventually(async () => (await sent(token, "sendMessage")).find((r) => QUESTION.test(String(r.body.text))));
    const note = await owner.fetch("POST", "/messages/outgoing/", {
      conversation: conversation.id,
      content: "Parcel re-sent, ticket #123",
      private: true,
    });
    expect(note.status, await note.clone().text()).toBe(201);
    return { owner, token, inbox, postUpdate, conversation };
  };

  it("after the agent's private wrap-up note, the visitor's tap on the question is still its rating", async () => {
    const { owner, inbox, postUpdate, conversation } = await askedThenNoted();
    // The note is not in the visitor's chat: the question is still the latest thing they saw.
    expect((await postUpdate(callback("csat:4"))).status).toBe(200);
    expect(await eventually(() => csatOf(owner, conversation.id))).toMatchObject({ rating: 4 });
    expect(await conversationsOf(owner, inbox.inboxId)).toHaveLength(1);
  });

  it('after the note, a typed "5" is the rating, not a new conversation', async () => {
    const { owner, inbox, postUpdate, conversation } = await askedThenNoted();
    const before = (await messagesOf(owner, conversation.id)).length;
    await postUpdate(textUpdate("5", from));
    expect(await eventually(() => csatOf(owner, conversation.id))).toMatchObject({ rating: 5 });
    expect(await conversationsOf(owner, inbox.inboxId)).toHaveLength(1);
    expect(await messagesOf(owner, conversation.id)).toHaveLength(before);
  });

  it('after the question, a photo captioned "2" is a message with its photo, not the rating', async () => {
    const { owner, inbox, postUpdate, conversation } = await askedThenNoted();
    const photo = textUpdate("", from);
    const { text: _text, ...message } = photo.message;
    await postUpdate({
      ...photo,
      message: { ...message, caption: "2", photo: [{ file_id: "dent", file_unique_id: "d", width: 800, height: 600 }] },
    });
    // The chat's conversation is resolved: the photo opens the next one, and the question stays unanswered.
    const conversations = await eventually(async () => {
      const all = await conversationsOf(owner, inbox.inboxId);
      return all.length === 2 && all;
    });
    const next = conversations.find((c) => c.id !== conversation.id)!;
    const [kept] = await messagesWhen(owner, next.id, (m) => m.length >= 1);
    expect(kept).toMatchObject({ senderType: "contact", content: "2", attachments: [{ type: "image" }] });
    expect(await csatOf(owner, conversation.id)).toBeNull();
  });

  it("resolving again after the note does not ask twice", async () => {
    const { owner, token, conversation } = await askedThenNoted();
    await owner.fetch("POST", `/conversations/${conversation.id}/resolve/`);
    const asked = await messagesOf(owner, conversation.id);
    expect(asked.filter((m) => QUESTION.test(String(m.content)))).toHaveLength(1);
    expect((await sent(token, "sendMessage")).filter((r) => QUESTION.test(String(r.body.text)))).toHaveLength(1);
  });

  it("a rating button tapped when no question waits is dropped: no message, no conversation", async () => {
    const { owner, inbox, postUpdate } = await telegramInbox();
    expect((await postUpdate(callback("csat:2"))).status).toBe(200);
    // An ordinary message after it is taken in; the tap before it left nothing.
    await postUpdate(textUpdate("hello", from));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(owner, conversation.id, (m) => m.length >= 2);
    expect(contactLines(messages)).toEqual(["hello"]);
    expect(await csatOf(owner, conversation.id)).toBeNull();
  });
});

describe("LINE: the rating question with quick replies", () => {
  it(
    'operator typing shows the loading animation; resolve asks with quick replies 1-5; a reply "3" is the ' + "rating",
    async () => {
      const owner = await seedOwner();
      const { creds, inbox, user, conversation } = await helloTakenOver(owner);
      const requests = (path: string) => lineSent(creds.channelAccessToken, path);

      const loadings = (await requests("/v2/bot/chat/loading/start")).length;
      await owner.fetch("POST", `/conversations/${conversation.id}/typing/`, { typing: true });
      expect(
        (await eventually(async () => (await requests("/v2/bot/chat/loading/start")).slice(loadings)[0])).body,
      ).toEqual({ chatId: user, loadingSeconds: 20 });

      await owner.fetch("POST", `/conversations/${conversation.id}/resolve/`);
      const ask = await eventually(async () =>
        [...(await requests("/v2/bot/message/reply")), ...(await requests("/v2/bot/message/push"))].find((r) =>
          QUESTION.test(String(r.body.messages?.[0]?.text)),
        ),
      );
      expect(ask.body.messages![0].quickReply!.items.map((i: { action: { text: string } }) => i.action.text)).toEqual([
        "1",
        "2",
        "3",
        "4",
        "5",
      ]);
      const before = (await messagesOf(owner, conversation.id)).length;

      await post(inbox.path, await signed(creds.channelSecret, textEvent(user, " 3 ")));
      expect(await eventually(() => csatOf(owner, conversation.id))).toMatchObject({ rating: 3 });
      expect(await messagesOf(owner, conversation.id)).toHaveLength(before);
      expect(await conversationsOf(owner, inbox.inboxId)).toHaveLength(1);
    },
  );
});
