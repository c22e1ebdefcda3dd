import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound, expectInvalid } from "../../support/refusals";
import { createInbox, createWebhook, webhooksPath } from "./fixtures";
import { bodyOf } from "../../support/api";

describe("GET /inboxes/{inboxId}/webhooks/", () => {
  it.each(PREFIXES)("lists the inbox's webhooks, newest first, without secrets (%s)", async (prefix) => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const other = await createInbox(owner);
    const first = await createWebhook(owner, inbox.id, { secretToken: "list-secret-one" });
    const second = await createWebhook(owner, inbox.id, { direction: "incoming" });
    await createWebhook(owner, other.id);
    const res = await owner.fetch("GET", webhooksPath(inbox.id), undefined, { prefix });
    const text = await res.clone().text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain("list-secret-one");
    const page = await bodyOf<"GET /inboxes/{inboxId}/webhooks/">(res);
    expect(page).toMatchObject({ count: 2, next: null, previous: null });
    expect(page.results).toEqual([second, first]);
    const incoming = await bodyOf<"GET /inboxes/{inboxId}/webhooks/">(
      await owner.fetch("GET", `${webhooksPath(inbox.id)}?direction=incoming`, undefined, { prefix }),
    );
    expect(incoming.results.map((w) => w.id)).toEqual([second.id]);
  });

  it("pages with pageSize", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    for (let i = 0; i < 3; i++) await createWebhook(owner, inbox.id);
    const page = await bodyOf<"GET /inboxes/{inboxId}/webhooks/">(
      await owner.fetch("GET", `${webhooksPath(inbox.id)}?page_size=2&page=2`),
    );
    expect(page).toMatchObject({ count: 3, next: null });
    expect(page.results).toHaveLength(1);
    await expectNotFound(await owner.fetch("GET", `${webhooksPath(inbox.id)}?pageSize=2&page=3`));
  });

  it("400 for a bad filter", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    await expectInvalid(await owner.fetch("GET", `${webhooksPath(inbox.id)}?direction=sideways`), "direction");
  });

  it("403 without webhook.manage", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    await expectDenied(await (await seedMember(owner, ["inbox.manage"])).fetch("GET", webhooksPath(inbox.id)));
  });

  it("404 for another organization's inbox or an unknown one", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const theirs = await createInbox(stranger);
    await createWebhook(stranger, theirs.id);
    await expectNotFound(await owner.fetch("GET", webhooksPath(theirs.id)));
    await expectNotFound(await owner.fetch("GET", webhooksPath(NO_SUCH_ID)));
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", `/api${webhooksPath(NO_SUCH_ID)}`), 401, "not_authenticated");
  });
});
