// What the conversation search's tests do through the API (test/services/search-terms.test.ts, shards.test.ts).
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

/** A conversation whose first message is `content`; the assistant's reply is stored with it. */
export async function conversation(actor: Actor, content = "hello") {
  const bot = await createChatbot(actor);
  const res = await actor.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId;
}

/** A private note of the team in the conversation: searched like any message. */
export async function say(actor: Actor, conversationId: string, content: string) {
  const res = await actor.fetch("POST", "/messages/outgoing/", {
    conversation: conversationId,
    content,
    private: true,
  });
  expect(res.status, await res.clone().text()).toBe(201);
}
