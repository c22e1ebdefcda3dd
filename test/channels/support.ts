// End-to-end tests of messaging channels: an inbox connected to a platform's stand-in
// (test/support/platforms), events posted the way the platform posts them, replies read from what
// the stand-in received.
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { countRows, data, unique } from "../harness";
import { client } from "../../src/db/prepared";
import { channelEvents } from "../../src/db/schema";
import type { ChannelPlatform } from "../../src/services/channels/types";
import { bodyOf, refinedBodyOf, type Schemas } from "../support/api";
import type { GraphBody, LineBody, RecordedRequest, SlackBody, TelegramBody } from "../support/platforms/recorded";

/** A request to our webhook as the platform sends it: its headers (with the signature) and its body. */
export interface Signed {
  headers: Record<string, string>;
  body: BodyInit;
}

export type { RecordedRequest } from "../support/platforms/recorded";

/** One answer of the platform's stand-in, scripted ahead (`standIn(...).script`). */
export interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** What each stand-in records of a request's body. */
interface StandInBodies {
  line: LineBody;
  telegram: TelegramBody;
  graph: GraphBody;
  slack: SlackBody;
}

/**
 * The request a platform sends when the business saves the webhook URL in its dashboard (Meta's GET with `hub.*`,
 * Slack's signed `url_verification`), as its stand-in makes it, and the challenge it expects back.
 */
export interface WebhookVerification extends Signed {
  method: "GET" | "POST";
  /** Appended to the webhook URL (Meta's `hub.*`). */
  query: string;
  challenge: string;
}

/** Sends the platform's verification request (`standIn(...).verification`) to our webhook at `path`. */
export const sendVerification = (path: string, v: WebhookVerification) =>
  post(v.query ? `${path}?${v.query}` : path, v, v.method);

/** A platform's stand-in by name (line, telegram, graph, slack). */
export function standIn<Name extends keyof StandInBodies>(name: Name) {
  const urls: Record<string, string> = JSON.parse(env.TEST_PLATFORM_URLS);
  const url = urls[name];
  const control = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  return {
    url,
    /** The requests our worker made with this account (bot token, access token). */
    requests: async (key: string) =>
      (await fetch(`${url}/__requests?key=${encodeURIComponent(key)}`)).json<RecordedRequest<StandInBodies[Name]>[]>(),
    /** The account's next answers, in order, before the stand-in answers as the platform would again. */
    script: async (key: string, responses: Scripted[]) => void (await control("/__script", { key, responses })),
    /** The platform's request to our webhook, signed by the stand-in the platform's way. */
    sign: async (input: unknown) =>
      (await control("/__sign", input)).json<{ headers: Record<string, string>; body: string }>(),
    /** The platform's check of the webhook URL, made by the stand-in (graph: `{verifyToken}`, slack:
     * `{signingSecret}`). */
    verification: async (input: Record<string, unknown>) =>
      (await control("/__verify", input)).json<WebhookVerification>(),
    reset: async (key: string) => void (await control("/__reset", { key })),
    /** An outage of the platform for the account: every request answers 503 for `seconds` (0 ends it). */
    outage: async (key: string, seconds: number) => void (await control("/__outage", { key, seconds })),
    /**
     * Holds the account's next request to a path starting with `path` unanswered: `held` resolves once our worker
     * waits on it, `release()` lets the stand-in answer it.
     */
    hold: async (key: string, path: string) => {
      await control("/__hold", { key, path });
      const held = eventually(async () => {
        const answer = await fetch(`${url}/__held?key=${encodeURIComponent(key)}`);
        return (await answer.json<{ held: boolean }>()).held;
      });
      return { held, release: async () => void (await control("/__release", { key })) };
    },
  };
}

export interface ChannelInbox {
  inboxId: string;
  chatbotId: string;
  /** `/channels/{platform}/{inboxId}` */
  path: string;
}

/** An assistant on the local model with an inbox of `platform` whose channel holds `credentials`; connected unless
 * `connect: false`. */
export async function channelInbox(
  actor: Actor,
  platform: ChannelPlatform,
  credentials: Record<string, string>,
  options: { connect?: boolean; chatbot?: Record<string, unknown> } = {},
): Promise<ChannelInbox> {
  const bot = await createChatbot(actor, options.chatbot ?? {});
  const created = await actor.fetch("POST", "/inboxes/", {
    name: unique(platform),
    channelType: platform,
    chatbot: { id: bot.id },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const inbox = await bodyOf<"POST /inboxes/">(created);
  const saved = await actor.fetch("PUT", `/inboxes/${inbox.id}/channel/`, credentials);
  expect(saved.status, await saved.clone().text()).toBe(200);
  if (options.connect !== false) {
    const connected = await actor.fetch("POST", `/inboxes/${inbox.id}/channel/connect/`);
    expect(connected.status, await connected.clone().text()).toBe(200);
  }
  return { inboxId: inbox.id, chatbotId: bot.id, path: `/channels/${platform}/${inbox.id}` };
}

/** Posts a signed event to our webhook as the platform would. */
export const post = (path: string, signed: Signed, method = "POST") =>
  SELF.fetch(`https://assistants.example.com${path}`, {
    method,
    headers: signed.headers,
    body: method === "GET" ? undefined : signed.body,
  });

/** A request to our webhook with no signature at all. */
export const unsigned = (body: unknown): Signed => ({
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

/** How many of the inbox's events the webhook kept (one a platform event, redeliveries included). */
export const storedEvents = async (organizationId: string, inboxId: string) =>
  countRows(client(await data(organizationId)), "channel_events WHERE inbox_id = ?", inboxId);

/** The inbox's events set aside (status `ignored`), with their reasons, in the order they came. */
/**
 * An event stored as a channel's webhook keeps it for the intake (pending, not yet queued), come at `event.at`;
 * `columns` adds to its row (a message a run named before it died, say).
 */
export async function keepEvent(
  organizationId: string,
  inboxId: string,
  event: { eventId: string; threadKey: string; at: number } & Record<string, unknown>,
  columns: { messageId?: string } = {},
) {
  await (await data(organizationId)).insert(channelEvents).values({
    inboxId,
    eventId: event.eventId,
    organizationId,
    payload: { ...event, receivedAt: event.at },
    threadKey: event.threadKey,
    at: event.at,
    receivedAt: event.at,
    ...columns,
  });
}

export const setAside = async (organizationId: string, inboxId: string) =>
  (
    await client(await data(organizationId))
      .prepare("select error from channel_events where inbox_id = ? and status = 'ignored' order by received_at")
      .bind(inboxId)
      .all<{ error: string | null }>()
  ).results;

/** Polls `read` until it gives something truthy (default 15 s); returns it. */
export async function eventually<T>(read: () => Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > until) throw new Error(`eventually: nothing after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const conversationsOf = async (actor: Actor, inboxId: string) =>
  (await bodyOf<"GET /conversations/">(await actor.fetch("GET", `/conversations/?inbox=${inboxId}&pageSize=100`)))
    .results;

/** A message as the list gives it, with what the channels write into its open `attachments` and `metadata`. */
type MessageDetails = {
  attachments: { id: string; type: string; filename: string; contentType: string; size: number }[];
  metadata: {
    channel?: { type: string; eventId: string };
    channelDelivery?: {
      status: string;
      attempts: number;
      error: string | null;
      platformMessageId: string | null;
      platformMessageIds: string[];
    };
  };
};
export type MessageItem = Omit<Schemas["Message"], keyof MessageDetails> & MessageDetails;

export const messagesOf = async (actor: Actor, conversationId: string) =>
  (
    await refinedBodyOf<"GET /messages/", { results: MessageDetails[] }>(
      await actor.fetch("GET", `/messages/?conversation=${conversationId}&pageSize=100`),
    )
  ).results.sort((a, b) => a.sequence - b.sequence);

export const csatOf = async (actor: Actor, conversationId: string) =>
  (await bodyOf<"GET /conversations/{id}/">(await actor.fetch("GET", `/conversations/${conversationId}/`))).csat;

/** The inbox's only conversation, once it exists. */
export const onlyConversation = (actor: Actor, inboxId: string) =>
  eventually(async () => (await conversationsOf(actor, inboxId))[0]);

/** The conversation's messages once `done` holds for them. */
export const messagesWhen = (
  actor: Actor,
  conversationId: string,
  done: (messages: MessageItem[]) => boolean,
  ms?: number,
) =>
  eventually(async () => {
    const messages = await messagesOf(actor, conversationId);
    return done(messages) && messages;
  }, ms);

/** What the visitor sent, in order: their messages' contents. */
export const contactLines = (messages: MessageItem[]) =>
  messages.filter((m) => m.senderType === "contact").map((m) => m.content);

/** What the visitor sent, in order: each message's content with the names of its files. */
export const contactLinesWithFiles = (messages: MessageItem[]) =>
  messages.filter((m) => m.senderType === "contact").map((m) => [m.content, m.attachments.map((a) => a.filename)]);

/**
 * The conversation's messages as [sender type, content] once it holds `count`, read again a second later: what is kept
 * unanswered (a reaction) would have had its answer by then.
 */
export async function settledLines(actor: Actor, conversationId: string, count: number) {
  await messagesWhen(actor, conversationId, (m) => m.length >= count);
  await new Promise((r) => setTimeout(r, 1000));
  return (await messagesOf(actor, conversationId)).map((m) => [m.senderType, m.content]);
}

/** `messagesWhen` conditions on what the channel wrote of its delivery: some message is sent; the last one is
 * `status`; message `index` is the last and `status`. */
export const someSent = (messages: MessageItem[]) =>
  messages.some((m) => m.metadata?.channelDelivery?.status === "sent");
export const lastIs = (status: string) => (messages: MessageItem[]) =>
  messages.at(-1)?.metadata?.channelDelivery?.status === status;
export const nthIs = (index: number, status: string) => (messages: MessageItem[]) =>
  messages.length === index + 1 && messages[index].metadata?.channelDelivery?.status === status;
