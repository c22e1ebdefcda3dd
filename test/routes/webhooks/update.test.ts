import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { decryptSecret } from "../../../src/lib/crypto";
import { eq } from "drizzle-orm";
import { webhooks } from "../../../src/db/schema";
import { PREFIXES, call, db, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { HOOK_URL, ownersWebhook, storedWebhook, webhooksOfTwoOrganizations, webhooksPath } from "./fixtures";
import { bodyOf } from "../../support/api";

const VALID_TEMPLATE = '{"id": {{ message.id | tojson }}}';

describe("PUT and PATCH /inboxes/{inboxId}/webhooks/{webhookId}/", () => {
  it.each(PREFIXES)("PUT replaces the configuration; left-out fields and the secret stay (%s)", async (prefix) => {
    const { owner, hook, path } = await ownersWebhook({ headers: { "X-A": "1" }, secretToken: "keep-this-secret" });
    const body = {
      name: "Renamed",
      direction: "incoming",
      url: "https://other.example.org/hook",
      method: "PATCH",
      is_enabled: false,
    };
    const res = await owner.fetch("PUT", path, body, { prefix });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain("keep-this-secret");
    expect(JSON.parse(text)).toMatchObject({
      id: hook.id,
      name: "Renamed",
      direction: "incoming",
      url: "https://other.example.org/hook",
      method: "PATCH",
      isEnabled: false,
      headers: { "X-A": "1" },
      hasSecretToken: true,
      secretTokenPreview: "…cret",
    });
  });

  it("PATCH changes only what it is given; a new secret replaces the old, null removes it", async () => {
    const { owner, hook, path } = await ownersWebhook({ secretToken: "first-secret-value" });
    const renamed = await bodyOf<"PATCH /inboxes/{inboxId}/webhooks/{webhookId}/">(
      await owner.fetch("PATCH", path, { name: "Only name" }),
    );
    expect(renamed).toMatchObject({ ...hook, name: "Only name", updatedAt: renamed.updatedAt });

    const rotated = await owner.fetch("PATCH", path, { secretToken: "second-secret-value" });
    const text = await rotated.text();
    expect(text).not.toContain("second-secret-value");
    expect(JSON.parse(text)).toMatchObject({ hasSecretToken: true, secretTokenPreview: "…alue" });
    expect(await decryptSecret((await storedWebhook(hook.id)).secretTokenSealed!, env.ENCRYPTION_KEY)).toBe(
      "second-secret-value",
    );

    const removed = await bodyOf<"PATCH /inboxes/{inboxId}/webhooks/{webhookId}/">(
      await owner.fetch("PATCH", path, { secret_token: null, headers: { "X-B": "2" } }),
    );
    expect(removed).toMatchObject({
      hasSecretToken: false,
      secretTokenPreview: null,
      headers: { "X-B": "2" },
      name: "Only name",
    });
    expect((await storedWebhook(hook.id)).secretTokenSealed).toBeNull();
  });

  it("PATCH switches retries on and off; isEnabled true re-enables one disabled by failures, clears why", async () => {
    const { owner, hook, path } = await ownersWebhook();
    expect(await (await owner.fetch("PATCH", path, { retry_failed_deliveries: true })).json()).toMatchObject({
      retryFailedDeliveries: true,
    });
    expect((await storedWebhook(hook.id)).retryFailedDeliveries).toBe(true);
    // As completeAttempts leaves a webhook whose every delivery failed for 3 days.
    const disabledAt = Date.now() - 1000;
    await db()
      .update(webhooks)
      .set({
        isEnabled: false,
        disabledAt,
        disabledReason: "Every delivery failed ...",
        failingSince: disabledAt - 3 * 86_400_000,
      })
      .where(eq(webhooks.id, hook.id));
    const shown = await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/">(await owner.fetch("GET", path));
    expect(shown).toMatchObject({
      isEnabled: false,
      disabledAt: String(disabledAt),
      disabledReason: "Every delivery failed ...",
    });
    // Renaming leaves it disabled, with its reason.
    expect(await (await owner.fetch("PATCH", path, { name: "Still off" })).json()).toMatchObject({
      isEnabled: false,
      disabledAt: String(disabledAt),
    });
    const enabled = await bodyOf<"PATCH /inboxes/{inboxId}/webhooks/{webhookId}/">(
      await owner.fetch("PATCH", path, { isEnabled: true, retryFailedDeliveries: false }),
    );
    expect(enabled).toMatchObject({
      isEnabled: true,
      retryFailedDeliveries: false,
      disabledAt: null,
      disabledReason: null,
    });
    expect((await storedWebhook(hook.id)).failingSince).toBeNull();
  });

  it("switching to the custom preset needs a template; the template is kept when switching back", async () => {
    const { owner, path } = await ownersWebhook();
    const custom = await bodyOf<"PATCH /inboxes/{inboxId}/webhooks/{webhookId}/">(
      await owner.fetch("PATCH", path, { templatePreset: "custom", customTemplate: VALID_TEMPLATE }),
    );
    expect(custom).toMatchObject({ templatePreset: "custom", customTemplate: VALID_TEMPLATE });
    const standard = await bodyOf<"PATCH /inboxes/{inboxId}/webhooks/{webhookId}/">(
      await owner.fetch("PATCH", path, { templatePreset: "service_standard" }),
    );
    expect(standard).toMatchObject({ templatePreset: "service_standard", customTemplate: VALID_TEMPLATE });
    // Back to custom without sending the template: the stored one serves.
    expect((await owner.fetch("PATCH", path, { templatePreset: "custom" })).status).toBe(200);
  });

  it("400 naming the field, and nothing written", async () => {
    const { owner, hook, path } = await ownersWebhook({ secretToken: "unchanged-secret" });
    const before = await storedWebhook(hook.id);
    const cases: [string, unknown, string][] = [
      ["PATCH", { name: "New", url: "http://169.254.169.254/latest/meta-data" }, "url"],
      ["PATCH", { name: "New", url: "http://localhost:8080/" }, "url"],
      ["PATCH", { name: "New", templatePreset: "custom" }, "customTemplate"],
      ["PATCH", { name: "New", templatePreset: "custom", customTemplate: "{{ broken" }, "customTemplate"],
      ["PATCH", { name: "New", headers: { Host: "internal" } }, "headers"],
      ["PATCH", { name: "New", secretToken: "" }, "secretToken"],
      ["PATCH", { name: "" }, "name"],
      ["PATCH", { name: "New", retryFailedDeliveries: null }, "retryFailedDeliveries"],
      ["PUT", { direction: "outgoing", url: HOOK_URL }, "name"],
      ["PUT", { name: "New", direction: "outgoing" }, "url"],
    ];
    for (const [method, body, field] of cases) {
      const err = await expectError(await owner.fetch(method, path, body), 400, "invalid");
      expect(Object.keys(err.errors!), JSON.stringify(body)).toContain(field);
    }
    expect(await storedWebhook(hook.id)).toEqual(before);
  });

  it("403 for a member without webhook.manage", async () => {
    const { owner, hook, path } = await ownersWebhook();
    const member = await seedMember(owner, ["inbox.manage", "chatbot.manage"]);
    await expectDenied(await member.fetch("PATCH", path, { name: "New" }));
    expect((await storedWebhook(hook.id)).name).toBe(hook.name);
    const manager = await seedMember(owner, ["webhook.manage"]);
    expect((await manager.fetch("PATCH", path, { name: "New" })).status).toBe(200);
  });

  it("404 for another organization's webhook, or a webhook named under another inbox", async () => {
    const owner = await seedOwner();
    const { theirInbox, theirs, mine, other, hook } = await webhooksOfTwoOrganizations(owner);
    await expectNotFound(await owner.fetch("PATCH", webhooksPath(theirInbox.id, theirs.id), { name: "Mine" }));
    await expectError(
      await owner.fetch("PUT", webhooksPath(mine.id, theirs.id), {
        name: "Mine",
        direction: "outgoing",
        url: HOOK_URL,
      }),
      404,
      "not_found",
    );
    await expectNotFound(await owner.fetch("PATCH", webhooksPath(other.id, hook.id), { name: "Moved" }));
    expect((await storedWebhook(theirs.id)).name).toBe(theirs.name);
    expect((await storedWebhook(hook.id)).name).toBe(hook.name);
  });

  it("401 without a key", async () => {
    await expectError(
      await call("PATCH", `/api${webhooksPath(crypto.randomUUID(), crypto.randomUUID())}`, { name: "x" }),
      401,
      "not_authenticated",
    );
  });
});
