import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { inboxes, webChats } from "../../../src/db/schema";
import { PREFIXES, call, db, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createInbox } from "./fixtures";
import { botsOneRefusing } from "../../channels/telegram-support";

const exists = async (id: string) => (await db().select().from(inboxes).where(eq(inboxes.id, id))).length === 1;

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
