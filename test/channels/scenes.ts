// The scenes every messaging channel plays the same way (a text in and the reply out, a redelivery and forgeries,
// a takeover, the rating question, a 429 then a 400, a refused connect). Each platform's test file gives what is
// its own: how its events are built and signed, what its API stand-in received, and checks that on its own.
import { expect } from "vitest";
import type { Actor } from "../harness";
import type { ChannelPlatform } from "../../src/services/channels/types";
import { NOTHING_TO_SHOW } from "../../src/services/channels/outbound";
import { bodyOf, problemOf } from "../support/api";
import { createInbox } from "../routes/inboxes/fixtures";
import {
  type ChannelInbox,
  type RecordedRequest,
  type Scripted,
  type Signed,
  csatOf,
  eventually,
  messagesOf,
  messagesWhen,
  nthIs,
  lastIs,
  type MessageItem,
  onlyConversation,
  post,
  settledLines,
  someSent,
  storedEvents,
} from "./support";

/** The visitor's text as the platform posts it to the inbox's webhook, signed. */
export type Say = (text: string) => Promise<unknown>;

/** The assistant's conversation starters: they are its web chat's, so a web inbox of the assistant holds them. */
export async function givenStarters(actor: Actor, chatbotId: string, starters: string[]) {
  const web = await createInbox(actor, { chatbot: { id: chatbotId } });
  const res = await actor.fetch("PATCH", `/web-chats/${web.channel!.id}/`, { displayConversationStarters: starters });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** The inbox's channel as the API shows it: it matches `expected` and shows none of `secrets`. */
export async function shownChannel(actor: Actor, inboxId: string, expected: object, secrets: string[]) {
  const channel = await bodyOf<"GET /inboxes/{id}/channel/">(await actor.fetch("GET", `/inboxes/${inboxId}/channel/`));
  expect(channel).toMatchObject(expected);
  for (const secret of secrets) expect(JSON.stringify(channel)).not.toContain(secret);
  return channel;
}

/**
 * A visitor's `text` in (the request `signed`), the echo model's reply sent once: the message keeps the platform's
 * event id, the reply its delivery, the contact the platform's account (`contact`, matched).
 */
export async function textInReplyOut(
  actor: Actor,
  inbox: ChannelInbox,
  scene: {
    platform: ChannelPlatform;
    signed: Signed;
    text: string;
    eventId: string;
    platformMessageId: unknown;
    contact: object;
  },
) {
  expect((await post(inbox.path, scene.signed)).status).toBe(200);
  const conversation = await onlyConversation(actor, inbox.inboxId);
  const messages = await messagesWhen(actor, conversation.id, someSent);
  expect(messages.map((m) => [m.senderType, m.content])).toEqual([
    ["contact", scene.text],
    ["chatbot", `You said: "${scene.text}".`],
  ]);
  expect(messages[0].metadata?.channel).toMatchObject({ type: scene.platform, eventId: scene.eventId });
  expect(messages[1].metadata?.channelDelivery).toMatchObject({
    status: "sent",
    attempts: 1,
    error: null,
    platformMessageIds: [scene.platformMessageId],
  });
  const contact = await bodyOf<"GET /contacts/{id}/">(
    await actor.fetch("GET", `/contacts/${conversation.contact!.id}/`),
  );
  expect(contact).toMatchObject(scene.contact);
  // Its custom fields are the business's alone: the platform is the contact's inbox.
  expect(contact.metadata).toEqual({});
  return { conversation, messages };
}

/**
 * One event `delivered` more than once (the platform's redeliveries) is answered 200 each time and makes one
 * message; each of the `forged` requests is 401 and kept nothing. Gives the conversation and its contact's messages.
 */
export async function redeliveredAndForged(
  actor: Actor,
  inbox: ChannelInbox,
  scene: { delivered: Signed[]; forged: Signed[] },
) {
  for (const signed of scene.delivered) expect((await post(inbox.path, signed)).status).toBe(200);
  const conversation = await onlyConversation(actor, inbox.inboxId);
  await messagesWhen(actor, conversation.id, (m) => m.length === 2);
  await new Promise((r) => setTimeout(r, 500));
  const fromContact = (await messagesOf(actor, conversation.id)).filter((m) => m.senderType === "contact");
  for (const forged of scene.forged) expect((await post(inbox.path, forged)).status).toBe(401);
  expect(await storedEvents(actor.organizationId, inbox.inboxId)).toBe(1);
  return { conversation, fromContact };
}

/** The visitor's text with a typo (editedOnce), and the text of its edit. */
export const TYPO = "Do you ship to Osakka?";
export const CORRECTED = "Do you ship to Osaka?";

/**
 * The visitor's TYPO (`say()`) answered, then `edit()`: what it posts (the edit to CORRECTED, with the platform's
 * repeats and look-alikes that are no edit of the visitor's) adds the edit alone, kept as its new text, marked and
 * answered; the message and the edit are the inbox's only events kept.
 */
export async function editedOnce(
  actor: Actor,
  inbox: ChannelInbox,
  scene: { say: () => Promise<unknown>; edit: () => Promise<unknown> },
) {
  await scene.say();
  const conversation = await onlyConversation(actor, inbox.inboxId);
  await messagesWhen(actor, conversation.id, (m) => m.length >= 2);
  await scene.edit();
  const messages = await messagesWhen(actor, conversation.id, (m) => m.length >= 4);
  expect(messages.map((m) => [m.senderType, m.content])).toEqual([
    ["contact", TYPO],
    ["chatbot", `You said: "${TYPO}".`],
    ["contact", `[edited] ${CORRECTED}`],
    ["chatbot", `You said: "[edited] ${CORRECTED}".`],
  ]);
  expect(await storedEvents(actor.organizationId, inbox.inboxId)).toBe(2);
}

/**
 * "Where is my parcel?" answered (the reply sent), then `react(reply)`: what it posts (a reaction to the reply, with
 * what adds nothing: repeats, one taken back, the bot's own) adds the reaction alone, shown as `shown`, unanswered.
 * Gives the conversation.
 */
export async function reactionKept(
  actor: Actor,
  inbox: ChannelInbox,
  scene: { say: Say; react: (reply: MessageItem) => Promise<unknown>; shown: string },
) {
  await scene.say("Where is my parcel?");
  const conversation = await onlyConversation(actor, inbox.inboxId);
  const [, reply] = await messagesWhen(actor, conversation.id, someSent);
  await scene.react(reply);
  expect(await settledLines(actor, conversation.id, 3)).toEqual([
    ["contact", "Where is my parcel?"],
    ["chatbot", 'You said: "Where is my parcel?".'],
    ["contact", scene.shown],
  ]);
  return conversation;
}

/** The visitor's "Hello" and the assistant's answer sent: the conversation they are in. */
async function firstAnswered(actor: Actor, inbox: ChannelInbox, say: Say) {
  await say("Hello");
  const conversation = await onlyConversation(actor, inbox.inboxId);
  await messagesWhen(actor, conversation.id, nthIs(1, "sent"));
  return conversation;
}

/**
 * "Hello" answered, the conversation taken over, "Are you a bot?" kept unanswered, and the person's `content`
 * delivered: the messages then.
 */
export async function takenOver(actor: Actor, inbox: ChannelInbox, say: Say, content: string) {
  await say("Hello");
  const conversation = await onlyConversation(actor, inbox.inboxId);
  await messagesWhen(actor, conversation.id, (m) => m.length === 2);
  expect((await actor.fetch("POST", `/conversations/${conversation.id}/take-over/`)).status).toBe(200);
  await say("Are you a bot?");
  await messagesWhen(actor, conversation.id, (m) => m.length === 3);
  const agent = await actor.fetch("POST", "/messages/outgoing/", { conversation: conversation.id, content });
  expect(agent.status, await agent.clone().text()).toBe(201);
  const messages = await messagesWhen(actor, conversation.id, lastIs("sent"));
  expect(messages.map((m) => m.senderType)).toEqual(["contact", "chatbot", "contact", "user"]);
  return messages;
}

/**
 * Resolving sends the rating question (found among the requests `sent` gives); the visitor's "4" is kept as the
 * rating, not as a message.
 */
export async function ratedFour(actor: Actor, inbox: ChannelInbox, say: Say, sent: () => Promise<RecordedRequest[]>) {
  const conversation = await firstAnswered(actor, inbox, say);
  expect((await actor.fetch("POST", `/conversations/${conversation.id}/resolve/`)).status).toBe(200);
  const question = /How would you rate this conversation\?/;
  await eventually(async () => (await sent()).find((r) => question.test(JSON.stringify(r.body))));
  const asked = await messagesOf(actor, conversation.id);
  expect(asked.at(-1)).toMatchObject({ senderType: "chatbot", content: expect.stringMatching(question) });

  await say("4");
  expect(await eventually(() => csatOf(actor, conversation.id))).toMatchObject({ rating: 4 });
  expect(await messagesOf(actor, conversation.id)).toHaveLength(asked.length);
}

/** A scene that scripts the platform's answers: what the visitor says, the script, what comes ahead of each reply. */
export interface Scripting {
  say: Say;
  script: (responses: Scripted[]) => Promise<void>;
  /** What the platform answers ahead of each reply (a typing action). */
  before?: Scripted[];
}

/**
 * After a first exchange (which makes the contact, so the platform then sees the same calls each time): a reply
 * `rateLimited` once is tried again after its Retry-After and sent on the second attempt; one `refused` is failed
 * with the platform's words (`error`) and not tried again. `before` is what the platform answers ahead of each
 * reply (a typing action); `replies` the reply requests it received.
 */
export async function retriedThenFailed(
  actor: Actor,
  inbox: ChannelInbox,
  scene: Scripting & {
    rateLimited: Scripted;
    refused: Scripted;
    error: string;
    replies: () => Promise<RecordedRequest[]>;
  },
) {
  const before = scene.before ?? [];
  const conversation = await firstAnswered(actor, inbox, scene.say);

  await scene.script([...before, scene.rateLimited]);
  await scene.say("Again");
  const messages = await messagesWhen(actor, conversation.id, nthIs(3, "sent"));
  expect(messages[3].metadata!.channelDelivery).toMatchObject({ status: "sent", attempts: 2, error: null });
  const attempts = (await scene.replies()).slice(1);
  expect(attempts).toHaveLength(2);
  expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1000);

  await scene.script([...before, scene.refused]);
  await scene.say("Once more");
  const failed = await messagesWhen(actor, conversation.id, nthIs(5, "failed"));
  expect(failed[5].metadata!.channelDelivery).toMatchObject({ status: "failed", attempts: 1, error: scene.error });
  await new Promise((r) => setTimeout(r, 1500));
  expect(await scene.replies()).toHaveLength(4);
}

/**
 * After a first exchange: a reply the platform refuses for its chat alone (`chatRefused`: the person blocked the bot)
 * fails that delivery and leaves the channel connected; one refused for the channel's token (`tokenRefused`) shows the
 * channel failing with the platform's words, until a reply goes out again. `before`: what the platform answers ahead
 * of each reply (a typing action).
 */
export async function chatOrTokenRefused(
  actor: Actor,
  inbox: ChannelInbox,
  scene: Scripting & {
    chatRefused: Scripted;
    chatError: string;
    tokenRefused: Scripted;
    tokenError: string;
  },
) {
  const before = scene.before ?? [];
  const conversation = await firstAnswered(actor, inbox, scene.say);

  await scene.script([...before, scene.chatRefused]);
  await scene.say("Again");
  const blocked = await messagesWhen(actor, conversation.id, nthIs(3, "failed"));
  expect(blocked[3].metadata!.channelDelivery).toMatchObject({ status: "failed", error: scene.chatError });
  // Read "failing" before: every other chat of the inbox was fine.
  await shownChannel(actor, inbox.inboxId, { status: "connected", lastError: null }, []);

  await scene.script([...before, scene.tokenRefused]);
  await scene.say("Once more");
  const revoked = await messagesWhen(actor, conversation.id, nthIs(5, "failed"));
  expect(revoked[5].metadata!.channelDelivery).toMatchObject({ status: "failed", error: scene.tokenError });
  await shownChannel(actor, inbox.inboxId, { status: "failing", lastError: scene.tokenError }, []);

  await scene.say("Back?");
  await messagesWhen(actor, conversation.id, nthIs(7, "sent"));
  await shownChannel(actor, inbox.inboxId, { status: "connected", lastError: null }, []);
}

/**
 * After a first exchange, an operator's replies that render to nothing on the platform (a rule, an empty code block)
 * fail saying so, and none reaches the platform (`replies`: the reply requests it received): Telegram and Slack had
 * refused them with their words, Meta's apps had them read "sent" with nothing sent.
 */
export async function nothingToShow(actor: Actor, inbox: ChannelInbox, say: Say, replies: () => Promise<unknown[]>) {
  const conversation = await firstAnswered(actor, inbox, say);
  const before = (await replies()).length;
  for (const content of ["---", "```\n```"]) {
    const res = await actor.fetch("POST", "/messages/outgoing/", { conversation: conversation.id, content });
    expect(res.status, await res.clone().text()).toBe(201);
  }
  const failed = (m: MessageItem) => m.metadata?.channelDelivery?.status === "failed";
  const messages = await messagesWhen(actor, conversation.id, (m) => m.length === 4 && failed(m[2]) && failed(m[3]));
  for (const m of messages.slice(2))
    expect(m.metadata!.channelDelivery).toMatchObject({ error: NOTHING_TO_SHOW, platformMessageIds: [] });
  expect(await replies()).toHaveLength(before);
}

/** Connecting the inbox's channel is refused with the platform's answer (`detail`), and the channel shows it. */
export async function connectRefused(actor: Actor, inboxId: string, detail: string) {
  const res = await actor.fetch("POST", `/inboxes/${inboxId}/channel/connect/`);
  expect(res.status).toBe(400);
  expect(await problemOf(res)).toMatchObject({ code: "channel_connect_failed", detail });
  await shownChannel(actor, inboxId, { status: "failing", lastError: detail }, []);
}
