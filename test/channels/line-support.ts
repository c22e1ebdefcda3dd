// LINE's side of its end-to-end tests (line.test.ts, csat.test.ts): webhook bodies shaped the way LINE's reference
// shows them, signed by its stand-in (test/support/platforms/line.mjs) with LINE's algorithm.
import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import { type Actor, seedOwner, unique } from "../harness";
import { channelInbox, messagesWhen, nthIs, onlyConversation, post, standIn, type ChannelInbox } from "./support";

export const line = standIn("line");
/** LINE answers webhooks at an https URL only (the stand-in refuses others, the way LINE does). */
export const ORIGIN = "https://assistants.example.com";
export const hex = (n: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(n / 2)), (b) => b.toString(16).padStart(2, "0")).join("");
export const newUser = () => `U${hex(32)}`;

export function credentials() {
  return {
    channelId: String(1_600_000_000 + Math.floor(Math.random() * 1e8)),
    channelSecret: hex(32),
    channelAccessToken: unique("line-token"),
  };
}

/** The inbox with its channel saved and connected from our https origin (its webhook URL's). */
export async function lineInbox(owner: Actor, creds = credentials()): Promise<ChannelInbox> {
  const inbox = await channelInbox(owner, "line", creds, { connect: false });
  const asOwner = (method: string, path: string, body?: unknown) =>
    SELF.fetch(`${ORIGIN}/api/v1/inboxes/${inbox.inboxId}${path}`, {
      method,
      headers: { authorization: `Api-Key ${owner.key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  expect((await asOwner("PUT", "/channel/", creds)).status).toBe(200);
  const connected = await asOwner("POST", "/channel/connect/");
  expect(connected.status, await connected.clone().text()).toBe(200);
  return inbox;
}

/** lineInbox of a new owner: the owner, the channel's credentials and the inbox. */
export async function newLineInbox() {
  const owner = await seedOwner();
  const creds = credentials();
  return { owner, creds, inbox: await lineInbox(owner, creds) };
}

let sequence = 0;
/** A message event in the shape of LINE's reference
 * (https://developers.line.biz/en/reference/messaging-api/#message-event). */
export function messageEvent(
  userId: string,
  message: Record<string, unknown>,
  source: Record<string, unknown> = { type: "user", userId },
) {
  const id = String(470000000000000000 + ++sequence * 1000 + Math.floor(Math.random() * 1000));
  return {
    type: "message",
    message: { id, ...message },
    webhookEventId: `01J${hex(22).toUpperCase()}`,
    deliveryContext: { isRedelivery: false },
    timestamp: Date.now(),
    source,
    replyToken: hex(32),
    mode: "active",
  };
}
export const textEvent = (userId: string, text: string, source?: Record<string, unknown>) =>
  messageEvent(userId, { type: "text", quoteToken: `q${hex(16)}`, text }, source);
/** LINE's POST of `events` to our webhook, signed with the channel secret. */
export const signed = (channelSecret: string, ...events: unknown[]) =>
  line.sign({ channelSecret, body: { destination: `U${hex(32)}`, events } });
/** What the channel access token `token` asked of LINE's `path`. */
export const sent = async (token: string, path: string) => (await line.requests(token)).filter((r) => r.path === path);

/** A new user's "Hello" to a new LINE inbox of `owner`, its answer sent. */
export async function helloAnswered(owner: Actor) {
  const creds = credentials();
  const inbox = await lineInbox(owner, creds);
  const user = newUser();
  await post(inbox.path, await signed(creds.channelSecret, textEvent(user, "Hello")));
  const conversation = await onlyConversation(owner, inbox.inboxId);
  await messagesWhen(owner, conversation.id, nthIs(1, "sent"));
  return { creds, inbox, user, conversation };
}

/**
 * helloAnswered, then the conversation taken over. The answer is out first: a reply still queued would take the next
 * event's reply token.
 */
export async function helloTakenOver(owner: Actor) {
  const answered = await helloAnswered(owner);
  expect((await owner.fetch("POST", `/conversations/${answered.conversation.id}/take-over/`)).status).toBe(200);
  return answered;
}
