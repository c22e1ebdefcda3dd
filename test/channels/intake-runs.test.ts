// An event taken in again after a run of it died (services/channels/intake.ts): between storing its message and
// marking the event, or between naming the message on the event and posting it. The first stores nothing more and
// sends no second reply; the second stores the message once.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { channelEvents } from "../../src/db/schema";
import { takeInEvents } from "../../src/services/channels/intake";
import { client } from "../../src/db/prepared";
import { data, db, type Actor } from "../harness";
import { conversationsOf, eventually, lastIs, messagesWhen, onlyConversation } from "./support";
import { sent, telegramInbox, textUpdate, type TelegramUser } from "./telegram-support";

const QUESTION = /How would you rate this conversation\?/;

/** A Telegram chat whose first message is answered: the inbox, the conversation and its event. */
async function answeredChat(from: TelegramUser) {
  const chat = await telegramInbox();
  await chat.postUpdate(textUpdate("Where is my parcel?", from));
  const conversation = await onlyConversation(chat.owner, chat.inbox.inboxId);
  await messagesWhen(chat.owner, conversation.id, (m) => m.length === 2 && lastIs("sent")(m));
  return { ...chat, conversation };
}

/** Takes the events in as the channel queue does, and waits for what the run left to finish. */
async function takeInAgain(owner: Actor, inboxId: string, eventId: string) {
  const later: Promise<unknown>[] = [];
  const refs = [{ inboxId, eventId }];
  const failed = await takeInEvents(env, db(), await data(owner.organizationId), refs, (p) => later.push(p));
  await Promise.allSettled(later);
  return failed;
}

const eventsOf = async (owner: Actor, inboxId: string) =>
  client(await data(owner.organizationId))
    .prepare("select event_id, status, message_id from channel_events where inbox_id = ? order by received_at")
    .bind(inboxId)
    .all<{ event_id: string; status: string; message_id: string | null }>()
    .then((r) => r.results);

describe("a channel event taken in again", () => {
  it("after its message was stored: no second message, reply or conversation, though resolved since", async () => {
    const from: TelegramUser = { id: 7101000 + Math.floor(Math.random() * 1000), first_name: "Ada" };
    const { owner, token, inbox, conversation } = await answeredChat(from);
    // Resolved meanwhile: the chat's next message would open a new conversation.
    expect((await owner.fetch("POST", `/conversations/${conversation.id}/resolve/`)).status).toBe(200);
    await eventually(async () => (await sent(token, "sendMessage")).some((r) => QUESTION.test(String(r.body.text))));
    const before = await messagesWhen(owner, conversation.id, lastIs("sent"));
    const sends = (await sent(token, "sendMessage")).length;
    // The run died after the object stored the message: the event is still pending, its message named.
    const [event] = await eventsOf(owner, inbox.inboxId);
    expect(event).toMatchObject({ status: "stored", message_id: before[0].id });
    await client(await data(owner.organizationId))
      .prepare("update channel_events set status = 'pending' where inbox_id = ?")
      .bind(inbox.inboxId)
      .run();

    expect(await takeInAgain(owner, inbox.inboxId, event.event_id)).toEqual(new Set());
    expect(await eventsOf(owner, inbox.inboxId)).toEqual([{ ...event, status: "stored" }]);
    await new Promise((r) => setTimeout(r, 500));
    expect((await messagesWhen(owner, conversation.id, () => true)).map((m) => m.id)).toEqual(before.map((m) => m.id));
    expect(await conversationsOf(owner, inbox.inboxId)).toHaveLength(1);
    expect(await sent(token, "sendMessage")).toHaveLength(sends);
  });

  it("after its message was named but not posted: the message is stored and answered once", async () => {
    const from: TelegramUser = { id: 7102000 + Math.floor(Math.random() * 1000), first_name: "Ben" };
    const { owner, inbox, conversation } = await answeredChat(from);
    const now = Date.now();
    const event = {
      eventId: `died-${now}`,
      threadKey: String(from.id),
      sender: { id: String(from.id), name: "Ben" },
      text: "Is it on its way?",
      attachments: [],
      at: now,
    };
    await (await data(owner.organizationId)).insert(channelEvents).values({
      inboxId: inbox.inboxId,
      eventId: event.eventId,
      organizationId: owner.organizationId,
      payload: { ...event, receivedAt: now },
      threadKey: event.threadKey,
      at: now,
      receivedAt: now,
      // A run named its message, then died before posting it.
      messageId: crypto.randomUUID(),
    });

    expect(await takeInAgain(owner, inbox.inboxId, event.eventId)).toEqual(new Set());
    const messages = await messagesWhen(owner, conversation.id, (m) => m.length === 4 && lastIs("sent")(m));
    expect(messages.map((m) => [m.senderType, m.content])).toEqual([
      ["contact", "Where is my parcel?"],
      ["chatbot", expect.any(String)],
      ["contact", "Is it on its way?"],
      ["chatbot", expect.any(String)],
    ]);
    const [, taken] = await eventsOf(owner, inbox.inboxId);
    expect(taken).toEqual({ event_id: event.eventId, status: "stored", message_id: messages[2].id });
  });
});
