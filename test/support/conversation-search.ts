// Conversations opened through the API, and what the conversation search's tests do with them
// (test/services/search-terms.test.ts, shards.test.ts).
import { expect } from "vitest";
import type { Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { bodyOf } from "./api";

/** The ids `GET /conversations/?keyword=` lists. */
export async function search(actor: Actor, keyword: string) {
  const res = await actor.fetch("GET", `/conversations/?keyword=${encodeURIComponent(keyword)}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await bodyOf<"GET /conversations/">(res)).results.map((c) => c.id);
}

/**
 * A new assistant of `actor`'s (createChatbot's defaults) and a conversation with it whose first message is `content`,
 * the assistant's reply stored with it: the assistant, the conversation's id and the completion's answer.
 */
export async function startedConversation(actor: Actor, content = "start") {
  const bot = await createChatbot(actor);
  const res = await actor.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content } });
  expect(res.status, await res.clone().text()).toBe(200);
  const first = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
  return { bot, conversationId: first.conversationId, first };
}

/** A conversation whose first message is `content`; the assistant's reply is stored with it. */
export const conversation = async (actor: Actor, content = "hello") =>
  (await startedConversation(actor, content)).conversationId;

/** A private note of the team in the conversation: searched like any message. */
export async function say(actor: Actor, conversationId: string, content: string) {
  const res = await actor.fetch("POST", "/messages/outgoing/", {
    conversation: conversationId,
    content,
    private: true,
  });
  expect(res.status, await res.clone().text()).toBe(201);
}
