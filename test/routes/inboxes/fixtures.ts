import { expect } from "vitest";
import { chatbots, inboxes } from "../../../src/db/schema";
import { uuidv7 } from "../../../src/lib/ids";
import { LOCAL_LLM } from "../../fixtures/chatbots";
import { db, unique, type Actor } from "../../harness";

/** There are no assistant routes yet: assistants are written straight to the table. */
export async function seedChatbot(
  owner: Actor,
  models: { embeddingModelId?: string; rerankerModelId?: string; largeLanguageModelId?: string } = {},
) {
  const id = uuidv7();
  const name = unique("bot");
  await db()
    .insert(chatbots)
    .values({
      id,
      name,
      organizationId: owner.organizationId,
      createdById: owner.userId,
      largeLanguageModelId: LOCAL_LLM,
      ...models,
    });
  return { id, name };
}

export interface InboxRecord {
  id: string;
  name: string;
  channelType: string;
  chatbot: { id: string; name: string } | null;
  channel: { id: string; name: string } | null;
  unreadConversationsCount: number;
  isDefault: boolean;
}

export async function createInbox(owner: Actor, body: Record<string, unknown> = {}): Promise<InboxRecord> {
  const res = await owner.fetch("POST", "/inboxes/", { name: unique("inbox"), channelType: "web", ...body });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

/** A web inbox without its web chat (the API always creates both), for POST /web-chats/. */
export async function seedBareWebInbox(owner: Actor) {
  const id = uuidv7();
  const name = unique("bare");
  await db().insert(inboxes).values({ id, name, organizationId: owner.organizationId, channelType: "web" });
  return { id, name };
}
