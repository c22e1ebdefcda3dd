// An event taken in again after a run of it died (services/channels/intake.ts): between storing its message and
// marking the event, or between naming the message on the event and posting it. The first stores nothing more and
// sends no second reply; the second stores the message once. And two runs of one chat at once: one takes it in, the
// other leaves it to it.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { takeInEvents } from "../../src/services/channels/intake";
import { client } from "../../src/db/prepared";
import { data, db, type Actor } from "../harness";
import { conversationsOf, eventually, keepEvent, lastIs, messagesOf, messagesWhen, onlyConversation } from "./support";
import { sent, telegram, telegramInbox, textUpdate, type TelegramUser } from "./telegram-support";
import { objectsUnder, uploadRowsOf } from "../support/upload-bytes";

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
    // A run named its message, then died before posting it.
    await keepEvent(owner.organizationId, inbox.inboxId, event, { messageId: crypto.randomUUID() });

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

/** Telegram photos (one per name in `photos`) with a caption as the webhook keeps them: pending, not yet queued. */
async function keptPhoto(owner: Actor, inboxId: string, from: TelegramUser, caption: string, photos = ["AgACAgQ"]) {
  const now = Date.now();
  const eventId = String(Math.floor(Math.random() * 1e9));
  const event = {
    eventId,
    threadKey: String(from.id),
    sender: { id: String(from.id), name: from.first_name },
    text: caption,
    attachments: photos.map((name) => ({ kind: "image", ref: `${name}-${eventId}` })),
    at: now,
  };
  await keepEvent(owner.organizationId, inboxId, event);
  return eventId;
}

/**
 * Two runs of one chat's pending event at once: what the channel queue does when two batches hold events of one chat
 * (each run takes in the chat's pending events from the oldest), or the cron queues again an event a run still holds.
 * The first run is held in its file's download (Telegram's getFile) while the second runs to its end.
 */
async function overlappingRuns(owner: Actor, token: string, inboxId: string, eventId: string) {
  const { held, release } = await telegram.hold(token, `/bot${token}/getFile`);
  const first = takeInAgain(owner, inboxId, eventId);
  await held;
  const second = await takeInAgain(owner, inboxId, eventId);
  await release();
  return [await first, second];
}

describe("two runs of one chat at once", () => {
  it("a new chat's first message opens one conversation, not two; the second run leaves it to the first", async () => {
    const from: TelegramUser = { id: 7301000 + Math.floor(Math.random() * 1000), first_name: "Cy" };
    const { owner, token, inbox } = await telegramInbox();
    const eventId = await keptPhoto(owner, inbox.inboxId, from, "The parcel came broken");

    const [first, second] = await overlappingRuns(owner, token, inbox.inboxId, eventId);
    // The second found the chat held: its event is tried again later (it is stored by then), not dropped.
    expect(first).toEqual(new Set());
    expect(second).toEqual(new Set([eventId]));
    await new Promise((r) => setTimeout(r, 1500));

    const conversations = await conversationsOf(owner, inbox.inboxId);
    expect(conversations).toHaveLength(1);
    const messages = await messagesWhen(owner, conversations[0].id, (m) => m.length === 2 && lastIs("sent")(m));
    expect(messages.map((m) => m.senderType)).toEqual(["contact", "chatbot"]);
    expect(await eventsOf(owner, inbox.inboxId)).toEqual([
      { event_id: eventId, status: "stored", message_id: messages[0].id },
    ]);
    // Let go at the end of the run: the chat's next event is taken in at once.
    const next = await keptPhoto(owner, inbox.inboxId, from, "And the box too");
    expect(await takeInAgain(owner, inbox.inboxId, next)).toEqual(new Set());
  });

  it("a message of an open conversation is answered once, not twice", async () => {
    const from: TelegramUser = { id: 7302000 + Math.floor(Math.random() * 1000), first_name: "Di" };
    const { owner, token, inbox } = await telegramInbox();
    const opening = await keptPhoto(owner, inbox.inboxId, from, "Hello");
    await takeInAgain(owner, inbox.inboxId, opening);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.length === 2);
    const sendsBefore = (await sent(token, "sendMessage")).length;

    const eventId = await keptPhoto(owner, inbox.inboxId, from, "The parcel came broken");
    await overlappingRuns(owner, token, inbox.inboxId, eventId);
    await new Promise((r) => setTimeout(r, 1500));

    const types = (await messagesOf(owner, conversation.id)).map((m) => m.senderType);
    expect(types).toEqual(["contact", "chatbot", "contact", "chatbot"]);
    expect((await sent(token, "sendMessage")).length - sendsBefore).toBe(1);
  });
});

/** What the organization stores of a channel's files: its upload rows, R2 objects and attachment rows. */
async function storedFiles(owner: Actor) {
  const attachmentRows = await client(await data(owner.organizationId))
    .prepare("select key from attachments where organization_id = ? order by key")
    .bind(owner.organizationId)
    .all<{ key: string }>();
  return {
    uploads: await uploadRowsOf(owner.organizationId),
    objects: (await objectsUnder(`uploads/${owner.organizationId}/attachment/`)).sort(),
    attachments: attachmentRows.results.map((r) => r.key),
  };
}

describe("a channel message's files over several runs of its event", () => {
  it("a run failing after its first file was stored: the next stores and counts each file once", async () => {
    const from: TelegramUser = { id: 7401000 + Math.floor(Math.random() * 1000), first_name: "Ed" };
    const { owner, token, inbox } = await telegramInbox();
    const eventId = await keptPhoto(owner, inbox.inboxId, from, "Both sides of the box", ["front", "back"]);
    // The first photo comes; Telegram is down for the second: the run fails, to be tried again.
    await telegram.script(token, [
      { status: 200, body: { ok: true, result: { file_id: "f", file_unique_id: "uf", file_path: "photos/f.png" } } },
      { status: 200, headers: { "content-type": "image/png" }, body: "front of the box" },
      { status: 503, body: { ok: false, error_code: 503, description: "Service Unavailable" } },
    ]);
    expect(await takeInAgain(owner, inbox.inboxId, eventId)).toEqual(new Set([eventId]));
    expect(await takeInAgain(owner, inbox.inboxId, eventId)).toEqual(new Set());

    const conversation = await onlyConversation(owner, inbox.inboxId);
    const [message] = await messagesWhen(owner, conversation.id, (m) => m.length >= 1);
    expect(message.attachments).toHaveLength(2);
    const files = await storedFiles(owner);
    expect(files.uploads).toHaveLength(2);
    expect(files).toEqual({ uploads: files.uploads, objects: files.uploads, attachments: files.uploads });
  });

  it("a run past its chat's lease, beside the one that took the chat over: each file counted once", async () => {
    const from: TelegramUser = { id: 7402000 + Math.floor(Math.random() * 1000), first_name: "Flo" };
    const { owner, token, inbox } = await telegramInbox();
    const eventId = await keptPhoto(owner, inbox.inboxId, from, "Both sides of the box", ["front", "back"]);
    // The first run waits on its first file past its lease (as a run of a chat of many files may): another takes
    // the chat and the event in; then the first goes on.
    const { held, release } = await telegram.hold(token, `/bot${token}/getFile`);
    const first = takeInAgain(owner, inbox.inboxId, eventId);
    await held;
    await client(await data(owner.organizationId))
      .prepare("update channel_threads set lease_until = 1 where inbox_id = ?")
      .bind(inbox.inboxId)
      .run();
    expect(await takeInAgain(owner, inbox.inboxId, eventId)).toEqual(new Set());
    await release();
    await first;

    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(owner, conversation.id, (m) => m.length >= 1);
    expect(messages.filter((m) => m.senderType === "contact")).toHaveLength(1);
    expect(messages[0].attachments).toHaveLength(2);
    const files = await storedFiles(owner);
    expect(files.uploads).toHaveLength(2);
    expect(files).toEqual({ uploads: files.uploads, objects: files.uploads, attachments: files.uploads });
  });
});
