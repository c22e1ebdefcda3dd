import { expect } from "vitest";
import { call, unique, type Actor, type Settings } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { bodyOf } from "../../support/api";
import { identityDigest } from "../../../src/services/widget/tokens";

export const pub = (webChatId: string, rest = "") => `/api/v1/web-chats/${webChatId}/public/${rest}`;

/** A web inbox with its web chat, answered by `bot` (else a fresh assistant); `settings` patched onto the web chat. */
export async function seedWebChat<B extends { id: string } = Awaited<ReturnType<typeof createChatbot>>>(
  owner: Actor,
  settings: Record<string, unknown> = { enableAnonymous: true },
  given?: B,
) {
  const bot = (given ?? (await createChatbot(owner))) as B;
  const res = await owner.fetch("POST", "/inboxes/", {
    name: unique("site"),
    channelType: "web",
    chatbot: { id: bot.id },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const inbox = await bodyOf<"POST /inboxes/">(res);
  const patched = await owner.fetch("PATCH", `/web-chats/${inbox.channel!.id}/`, settings);
  expect(patched.status, await patched.clone().text()).toBe(200);
  return { id: inbox.channel!.id, inboxId: inbox.id, bot };
}

/** A client: its own address, so that rate limits of other tests never touch it. */
export function client(
  ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
) {
  const headers = (token?: string, extra: Record<string, string> = {}) => ({
    "CF-Connecting-IP": ip,
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    ...extra,
  });
  return {
    ip,
    get: (path: string, token?: string, extra?: Record<string, string>, settings?: Settings) =>
      call("GET", path, undefined, headers(token, extra), settings),
    post: (path: string, body: unknown, token?: string, extra?: Record<string, string>, settings?: Settings) =>
      call("POST", path, body, headers(token, extra), settings),
  };
}

export type Session = {
  token: string;
  expiresAt: string;
  contact: { id: string; name: string; email: string | null; identified: boolean };
  conversations: { id: string }[];
};

/** A new identity secret of the web chat (the one before it stops vouching for anyone). */
export async function newIdentitySecret(owner: Actor, webChatId: string): Promise<string> {
  const res = await owner.fetch("POST", `/web-chats/${webChatId}/identity-secret/`);
  return (await bodyOf<"POST /web-chats/{id}/identity-secret/">(res)).secret;
}

/** A session's `contact` signed with the web chat's identity secret; with `expiresAt` (epoch s) it lapses then. */
export async function signedContact(secret: string, sourceId: string, expiresAt?: number) {
  const identityToken = await identityDigest(secret, sourceId, expiresAt);
  return expiresAt === undefined
    ? { sourceId, identityToken }
    : { sourceId, identityToken, identityExpiresAt: expiresAt };
}

export async function startSession(webChatId: string, body: unknown = {}, c = client()): Promise<Session> {
  const res = await c.post(pub(webChatId, "session/"), body);
  expect(res.status, await res.clone().text()).toBe(200);
  return await bodyOf<"POST /web-chats/{id}/public/session/">(res);
}

/**
 * A visitor's conversation in a new web chat, begun with one answered message (`content`): the chat, the visitor's
 * client and session (started with `session`), and the conversation's id.
 */
export async function visitorConversation(
  owner: Actor,
  o: { content?: string; session?: Record<string, unknown> } = {},
) {
  const chat = await seedWebChat(owner);
  const visitor = client();
  const session = await startSession(chat.id, o.session ?? {}, visitor);
  const res = await visitor.post(pub(chat.id, "messages/"), { content: o.content ?? "hello" }, session.token);
  const id = /"conversationId":"([^"]+)"/.exec(await res.text())![1];
  return { chat, visitor, session, id };
}
