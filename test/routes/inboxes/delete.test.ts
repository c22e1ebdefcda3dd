import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { inboxes, webChats } from "../../../src/db/schema";
import { SHARDS, shardDb } from "../../../src/services/shards";
import { deleteInbox } from "../../../src/services/inboxes";
import { PREFIXES, call, countInParts, db, expectError, parts, seedMember, seedOwner, type Actor } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { batchingAfter, whileBatchingAny } from "../../support/races";
import { purgedThrough } from "../../support/purges";
import { createInbox } from "./fixtures";
import { botsOneRefusing } from "../../channels/telegram-support";

const exists = async (id: string) => (await db().select().from(inboxes).where(eq(inboxes.id, id))).length === 1;
/** The conversations of `inboxId` in every part of `owner`'s data plane. */
const conversationsIn = (owner: Actor, inboxId: string) =>
  countInParts(owner.organizationId, "conversations", "inbox_id = ?", inboxId);
/** The shards' bindings, where the parts of an organization's data plane are. */
const shards = () => SHARDS.map((name) => shardDb(env, name));
/** A batch that stores a conversation. */
const storesConversation = (sql: string[]) => sql.some((s) => /^insert into "conversations"/i.test(s));

describe("DELETE /inboxes/{id}/", () => {
  it.each(PREFIXES)("deletes the inbox and its web chat (%s)", async (prefix) => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const res = await owner.fetch("DELETE", `/inboxes/${inbox.id}/`, undefined, { prefix });
    expect(res.status).toBe(204);
    expect(await exists(inbox.id)).toBe(false);
    expect(await db().select().from(webChats).where(eq(webChats.id, inbox.channel!.id))).toHaveLength(0);
    await expectNotFound(await owner.fetch("GET", `/web-chats/${inbox.channel!.id}/`));
  });

  it("a Telegram inbox's bot webhook is removed, as a channel's disconnect does; a refusal is logged", async () => {
    const { owner, inbox, other, expectLeft } = await botsOneRefusing();
    await expectLeft(async () => {
      // With settings: answered once its `waitUntil` work is done.
      for (const id of [inbox.inboxId, other.inboxId]) {
        expect((await owner.fetch("DELETE", `/inboxes/${id}/`, undefined, { settings: {} })).status).toBe(204);
        expect(await exists(id)).toBe(false);
      }
    });
  });

  it("a conversation started as its inbox is deleted goes too, even with the purge run before it went", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    // After the delete wrote its purge, before it deletes the inbox: the housekeeping runs the purge (nothing to take
    // yet), then a conversation is started in the inbox, which still exists.
    const started = async () => {
      await purgedThrough(owner.organizationId, "inbox", inbox.id);
      expect((await owner.fetch("POST", "/conversations/", { webChat: inbox.channel!.id })).status).toBe(201);
    };
    const { organizationId } = owner;
    await deleteInbox(env, batchingAfter(db(), started), await parts(organizationId), organizationId, inbox.id);
    expect(await conversationsIn(owner, inbox.id)).toBe(1);
    await purgedThrough(organizationId, "inbox", inbox.id);
    expect(await conversationsIn(owner, inbox.id)).toBe(0);
  });

  it("a conversation stored after its inbox's delete and the purge's run goes at the next run", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    // After the start read the web chat's inbox, before it stores the conversation: the delete, and the
    // housekeeping's run of its purge.
    const deleted = async () => {
      expect((await owner.fetch("DELETE", `/inboxes/${inbox.id}/`)).status).toBe(204);
      await purgedThrough(owner.organizationId, "inbox", inbox.id);
    };
    await whileBatchingAny(shards(), storesConversation, deleted, () =>
      owner.fetch("POST", "/conversations/", { webChat: inbox.channel!.id }),
    );
    expect(await conversationsIn(owner, inbox.id)).toBe(1);
    await purgedThrough(owner.organizationId, "inbox", inbox.id);
    expect(await conversationsIn(owner, inbox.id)).toBe(0);
  });

  it("403 for a member with inbox.view only", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    await expectDenied(await (await seedMember(owner, ["inbox.view"])).fetch("DELETE", `/inboxes/${inbox.id}/`));
    expect(await exists(inbox.id)).toBe(true);
  });

  it("404 for another organization's inbox", async () => {
    const owner = await seedOwner();
    const theirs = await createInbox(await seedOwner());
    await expectNotFound(await owner.fetch("DELETE", `/inboxes/${theirs.id}/`));
    expect(await exists(theirs.id)).toBe(true);
  });

  it("401 without a key", async () => {
    await expectError(await call("DELETE", `/api/v1/inboxes/${crypto.randomUUID()}/`), 401, "not_authenticated");
  });
});
