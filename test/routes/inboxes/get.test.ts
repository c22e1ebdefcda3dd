import { describe, expect, it } from "vitest";
import { conversations } from "../../../src/db/schema";
import { NO_SUCH_ID, PREFIXES, call, data, expectError, seedOwner } from "../../harness";
import { expectReadableWith, expectUnknownIds } from "../../support/refusals";
import { createInbox } from "./fixtures";
import { bodyOf } from "../../support/api";

describe("GET /inboxes/{id}/", () => {
  it.each(PREFIXES)("returns the inbox under %s", async (prefix) => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const res = await owner.fetch("GET", `/inboxes/${inbox.id}`, undefined, { prefix });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(inbox);
  });

  it("unreadConversationsCount counts the inbox's conversations with unread messages", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const other = await createInbox(owner);
    const row = { organizationId: owner.organizationId, inboxId: inbox.id };
    await (await data(owner.organizationId))
      .insert(conversations)
      .values([
        { ...row, unreadCount: 2 },
        { ...row, unreadCount: 1 },
        { ...row },
        { ...row, inboxId: other.id, unreadCount: 5 },
      ]);
    const body = await bodyOf<"GET /inboxes/{id}/">(await owner.fetch("GET", `/inboxes/${inbox.id}/`));
    expect(body.unreadConversationsCount).toBe(2);
  });

  it("404 for another organization's inbox, an unknown or a malformed id", async () => {
    const owner = await seedOwner();
    const theirs = await createInbox(await seedOwner());
    await expectUnknownIds(owner, "/inboxes/", theirs.id);
  });

  it("403 without inbox.view", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    await expectReadableWith(owner, `/inboxes/${inbox.id}/`, { denied: ["chatbot.view"], readers: ["inbox.manage"] });
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", `/api/v1/inboxes/${NO_SUCH_ID}/`), 401, "not_authenticated");
  });
});
