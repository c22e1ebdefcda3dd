import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { runPurges } from "../../../src/services/purges";
import { dataDbs, placement } from "../../../src/services/shards";
import { describe, expect, it } from "vitest";
import { conversations } from "../../../src/db/schema";
import { PREFIXES, call, countInParts, data, db, expectError, seedMember, seedOwner, unique } from "../../harness";
import type { Actor } from "../../harness";
import { deleteChatbot } from "../../../src/services/chatbots/store";
import { SHARDS, shardDb } from "../../../src/services/shards";
import { batchingAfter, whileBatchingAny } from "../../support/races";
import { purgedThrough } from "../../support/purges";
import { createChatbot } from "../../fixtures/chatbots";
import { createInbox } from "../inboxes/fixtures";
import { inboxesOf, linksOf, ok, ownOrganizationOf, storedChatbot } from "./helpers";

/** A completion of `bot`'s, starting a conversation in its default inbox; `settings` waits for its after-work. */
const asked = async (owner: Actor, bot: { id: string }) =>
  (await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "hello" } }, { settings: {} }))
    .status;
/** What the assistant's purges take in `owner`'s data plane: its default inbox's conversations, its words. */
const leftOf = async (owner: Actor, bot: { id: string; defaultInbox: { id: string } | null }) => ({
  conversations: await countInParts(owner.organizationId, "conversations", "inbox_id = ?", bot.defaultInbox!.id),
  words: await countInParts(owner.organizationId, "chatbot_words", "chatbot_id = ?", bot.id),
});
/** Runs the assistant's purges and its default inbox's through. */
const purgedAll = async (owner: Actor, bot: { id: string; defaultInbox: { id: string } | null }) => {
  await purgedThrough(owner.organizationId, "chatbot", bot.id);
  await purgedThrough(owner.organizationId, "inbox", bot.defaultInbox!.id);
};

describe("DELETE /chatbots/{id}/", () => {
  it.each(PREFIXES)(
    "deletes the assistant with its default inbox; its other inboxes stay without assistant (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const member = await seedMember(owner, ["chatbot.view"]);
      const bot = await createChatbot(owner, { groups: [{ id: member.groupId }] });
      const other = await createInbox(owner, { chatbot: { id: bot.id } });
      const plane = await data(owner.organizationId);
      const [conversation] = await plane
        .insert(conversations)
        .values({ organizationId: owner.organizationId, inboxId: bot.defaultInbox!.id, chatbotId: bot.id })
        .returning();
      const res = await owner.fetch("DELETE", `/chatbots/${bot.id}/`, undefined, { prefix });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");
      await expectError(await owner.fetch("GET", `/chatbots/${bot.id}/`), 404, "not_found");
      expect(await storedChatbot(bot.id)).toBeUndefined();
      expect(await linksOf(bot.id)).toEqual([]);
      const inboxes = await inboxesOf(owner.organizationId);
      expect(inboxes.map((i) => [i.id, i.chatbotId])).toEqual([[other.id, null]]);
      // The default inbox's conversations leave every read at once and the housekeeping cron's purge deletes them
      // (services/purges.ts; other files' purges in the shared database may come first).
      await expectError(await owner.fetch("GET", `/conversations/${conversation.id}/`), 404, "not_found");
      const stored = () => plane.select().from(conversations).where(eq(conversations.id, conversation.id));
      for (let run = 0; run < 20 && (await stored()).length; run++) await runPurges(plane, Date.now());
      expect(await stored()).toEqual([]);
      await expectError(await owner.fetch("DELETE", `/chatbots/${bot.id}/`), 404, "not_found");
    },
  );

  it("a conversation started as the assistant is deleted goes with it, even with the purges run before", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    // After the delete wrote its purges, before it deletes the assistant: the housekeeping runs them (nothing to take
    // yet), then a completion starts a conversation with the assistant, which still exists.
    const started = async () => {
      await purgedAll(owner, bot);
      expect(await asked(owner, bot)).toBe(200);
    };
    await deleteChatbot(env, batchingAfter(db(), started), { id: bot.id, organizationId: owner.organizationId });
    expect((await leftOf(owner, bot)).conversations).toBe(1);
    await purgedAll(owner, bot);
    expect(await leftOf(owner, bot)).toEqual({ conversations: 0, words: 0 });
  });

  it("a conversation stored after its assistant's delete and the purges' run goes at the next run", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    // After the completion read the assistant, before its first turn stores the conversation: the delete, and the
    // housekeeping's run of its purges.
    const deleted = async () => {
      expect((await owner.fetch("DELETE", `/chatbots/${bot.id}/`)).status).toBe(204);
      await purgedAll(owner, bot);
    };
    const shards = SHARDS.map((name) => shardDb(env, name));
    const storesConversation = (sql: string[]) => sql.some((s) => /^insert into "conversations"/i.test(s));
    await whileBatchingAny(shards, storesConversation, deleted, () => asked(owner, bot));
    expect((await leftOf(owner, bot)).conversations).toBe(1);
    await purgedAll(owner, bot);
    expect(await leftOf(owner, bot)).toEqual({ conversations: 0, words: 0 });
  });

  it("a manager who sees the assistant may delete it", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["chatbot.manage"]);
    const bot = await createChatbot(owner, { groups: [{ id: manager.groupId }] });
    expect((await manager.fetch("DELETE", `/chatbots/${bot.id}/`)).status).toBe(204);
  });

  it("403 without chatbot.manage; 404 when invisible or of another organization; 401; nothing is deleted", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["chatbot.view"]);
    const outsider = await seedMember(owner, ["chatbot.manage"]);
    const bot = await createChatbot(owner, { groups: [{ id: viewer.groupId }] });
    const path = `/chatbots/${bot.id}/`;
    await expectError(await viewer.fetch("DELETE", path), 403, "permission_denied");
    await expectError(await outsider.fetch("DELETE", path), 404, "not_found");
    await expectError(await (await seedOwner()).fetch("DELETE", path), 404, "not_found");
    await expectError(await call("DELETE", `/api/v1${path}`), 401, "not_authenticated");
    expect(await ok<"GET /chatbots/{id}/">(await owner.fetch("GET", path))).toEqual(bot);
    expect(await inboxesOf(owner.organizationId)).toHaveLength(1);
  });

  it(
    "a personal assistant deleted while its creator acts in another organization: its default inbox's " +
      "conversations and its words, in the hosting organization's data plane, are purged",
    async () => {
      const host = await seedOwner();
      // A member whose own organization lives in the other shard.
      let member = await seedMember(host, ["chatbot.manage", "conversation.manage"]);
      while (placement(await ownOrganizationOf(member.userId)) === placement(host.organizationId))
        member = await seedMember(host, ["chatbot.manage", "conversation.manage"]);
      const own = await ownOrganizationOf(member.userId);
      const bot = await createChatbot(member, { name: unique("mine"), organization: "" });
      const asked = await member.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "hello" } });
      expect(asked.status, await asked.clone().text()).toBe(200);
      const inInbox = () => countInParts(host.organizationId, "conversations", "inbox_id = ?", bot.defaultInbox!.id);
      expect(await inInbox()).toBe(1);
      // Deleted by its creator acting in their own organization, where it is visible too.
      const res = await member.fetch("DELETE", `/chatbots/${bot.id}/`, undefined, {
        headers: { "X-Organization-Id": own },
      });
      expect(res.status, await res.clone().text()).toBe(204);
      for (const plane of dataDbs(env)) await runPurges(plane, Date.now());
      expect({
        conversationsOfDeletedInbox: await inInbox(),
        chatbotWords: await countInParts(host.organizationId, "chatbot_words", "chatbot_id = ?", bot.id),
      }).toEqual({ conversationsOfDeletedInbox: 0, chatbotWords: 0 });
    },
  );
});
