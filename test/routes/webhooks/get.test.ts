import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectNotFound, expectReadableWith } from "../../support/refusals";
import { ownersWebhook, webhooksPath, webhooksOfTwoOrganizations } from "./fixtures";

describe("GET /inboxes/{inboxId}/webhooks/{webhookId}/", () => {
  it.each(PREFIXES)("returns the webhook under %s, without the secret", async (prefix) => {
    const { owner, hook, path } = await ownersWebhook({ secretToken: "get-test-secret-token" });
    const res = await owner.fetch("GET", path.slice(0, -1), undefined, { prefix });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain("get-test-secret-token");
    expect(JSON.parse(text)).toEqual(hook);
  });

  it("masks custom header values, as every other credential is", async () => {
    const token = "Bearer crm-live-token-0123456789abcdef";
    const { owner, path } = await ownersWebhook({ headers: { Authorization: token, "X-Team": "support" } });
    // Any member with webhook.manage reads it, where the secretToken beside it is write-only.
    const manager = await seedMember(owner, ["webhook.manage"]);
    const res = await manager.fetch("GET", path);
    const text = await res.text();
    expect(text).not.toContain("crm-live-token");
    expect(JSON.parse(text).headers).toEqual({ Authorization: "…cdef", "X-Team": "••••" });
  });

  it("404 for another organization's webhook, another inbox's, an unknown or a malformed id", async () => {
    const owner = await seedOwner();
    const { theirInbox, theirs, mine, other, hook } = await webhooksOfTwoOrganizations(owner);
    await expectNotFound(await owner.fetch("GET", webhooksPath(theirInbox.id, theirs.id)));
    await expectNotFound(await owner.fetch("GET", webhooksPath(mine.id, theirs.id)));
    await expectNotFound(await owner.fetch("GET", webhooksPath(other.id, hook.id)));
    await expectNotFound(await owner.fetch("GET", webhooksPath(mine.id, NO_SUCH_ID)));
    await expectNotFound(await owner.fetch("GET", webhooksPath(mine.id, "123")));
  });

  it("403 without webhook.manage", async () => {
    const { owner, path } = await ownersWebhook();
    await expectReadableWith(owner, path, { denied: ["inbox.view"], readers: ["webhook.manage"] });
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", `/api/v1${webhooksPath(NO_SUCH_ID, NO_SUCH_ID)}`), 401, "not_authenticated");
  });
});
