// A deleted conversation's messages leave its object too (services/conversation/forget.ts): the delete names the
// conversations it takes, and the housekeeping cron has each object forget its storage.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { forgottenConversations } from "../../src/db/schema";
import { conversationObject } from "../../src/services/conversations";
import { runHousekeeping } from "../../src/services/housekeeping";
import { createChatbot } from "../fixtures/chatbots";
import { fromEveryPart, parts, seedOwner, type Actor } from "../harness";
import type { Db } from "../../src/env";
import { bodyOf } from "../support/api";
import { objectMessages } from "../support/object-messages";
import { pub, visitorConversation } from "../routes/widget/fixtures";

/** A conversation of two turns (the second through its object), its messages in the object. */
async function talked(owner: Actor, chatbotId: string) {
  let conversation: string | undefined;
  for (const content of ["hello", "and again"]) {
    const res = await owner.fetch("POST", `/chatbots/${chatbotId}/completions/`, {
      conversation,
      message: { content },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    conversation = (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId;
  }
  expect(await objectMessages(conversation!)).toHaveLength(4);
  return conversation!;
}

/** Every key and table row the conversation's object stores. */
const storedOf = (conversationId: string) =>
  runInDurableObject(conversationObject(env, conversationId), (_instance, state) => ({
    tables: state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
      )
      .toArray().length,
    keys: [...state.storage.kv.list()].length,
  }));

/** The conversations named to forget in the organization's data plane: each in its own part. */
const named = async (owner: Actor) =>
  (await fromEveryPart(owner.organizationId, (part) => part.select().from(forgottenConversations))).map(
    (r) => r.conversationId,
  );

/** The same in the parts `where` (read before an organization's delete, which takes its directory row with it). */
const namedIn = async (where: Db[]) =>
  (await Promise.all(where.map((part) => part.select().from(forgottenConversations))))
    .flat()
    .map((r) => r.conversationId);

describe("deleted conversations' objects", () => {
  it("forget their storage after an assistant's deletion, through the housekeeping cron; others keep it", async () => {
    const owner = await seedOwner();
    const gone = await createChatbot(owner);
    const kept = await createChatbot(owner);
    const [a, b, c] = [await talked(owner, gone.id), await talked(owner, gone.id), await talked(owner, kept.id)];
    expect((await storedOf(a)).tables).toBeGreaterThan(0);
    expect((await owner.fetch("DELETE", `/chatbots/${gone.id}/`)).status).toBe(204);
    expect(await named(owner)).toEqual(expect.arrayContaining([a, b]));
    expect(await named(owner)).not.toContain(c);
    await runHousekeeping(env);
    for (const id of [a, b]) expect(await storedOf(id)).toEqual({ tables: 0, keys: 0 });
    expect(await named(owner)).not.toEqual(expect.arrayContaining([a]));
    expect(await named(owner)).not.toEqual(expect.arrayContaining([b]));
    expect(await objectMessages(c)).toHaveLength(4);
  });

  it("forget their storage after the organization's deletion", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const id = await talked(owner, bot.id);
    // Once the organization is gone, so is its directory row: where its data plane was is read now (a read after the
    // delete found it only while this isolate's cache of the directory still held it).
    const where = await parts(owner.organizationId);
    const res = await owner.fetch("DELETE", `/organizations/${owner.organizationId}/`);
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await namedIn(where)).toContain(id);
    await runHousekeeping(env);
    expect(await storedOf(id)).toEqual({ tables: 0, keys: 0 });
    expect(await namedIn(where)).not.toContain(id);
  });

  it("forget their storage after their inbox's deletion; the inbox's assistant keeps its own", async () => {
    const owner = await seedOwner();
    const { chat, visitor, session, id } = await visitorConversation(owner);
    const again = await visitor.post(pub(chat.id, "messages/"), { conversation: id, content: "again" }, session.token);
    expect(again.status).toBe(200);
    await again.text();
    expect(await objectMessages(id)).toHaveLength(4);
    const elsewhere = await talked(owner, chat.bot.id);
    const res = await owner.fetch("DELETE", `/inboxes/${chat.inboxId}/`);
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await named(owner)).toContain(id);
    expect(await named(owner)).not.toContain(elsewhere);
    await runHousekeeping(env);
    expect(await storedOf(id)).toEqual({ tables: 0, keys: 0 });
    expect(await named(owner)).not.toContain(id);
    expect(await objectMessages(elsewhere)).toHaveLength(4);
  });
});
