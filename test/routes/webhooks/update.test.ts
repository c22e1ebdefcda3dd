import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { decryptSecret } from "../../../src/lib/crypto";
import { eq } from "drizzle-orm";
import { webhooks } from "../../../src/db/schema";
import { PREFIXES, call, db, expectError, seedMember, seedOwner, unique } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import {
  HOOK_URL,
  createInbox,
  createWebhook,
  ownersWebhook,
  storedHeaders,
  storedWebhook,
  webhooksOfTwoOrganizations,
  webhooksPath,
} from "./fixtures";
import type { McpTestServer } from "../../support/mcp-server.mjs";
import { sealLegacyHeaders } from "../../../src/services/webhooks/headers";
import { bodyOf } from "../../support/api";
import { receivedAt } from "../../support/received";

const VALID_TEMPLATE = '{"id": {{ message.id | tojson }}}';

describe("PUT and PATCH /inboxes/{inboxId}/webhooks/{webhookId}/", () => {
  it.each(PREFIXES)("PUT replaces the configuration; left-out fields and the secret stay (%s)", async (prefix) => {
    const { owner, hook, path } = await ownersWebhook({ headers: { "X-A": "1" }, secretToken: "keep-this-secret" });
    // Another path of the same server: the secret and the headers stay with it.
    const url = `${env.TEST_RECEIVER_URL}/ok/renamed`;
    const body = {
      name: "Renamed",
      direction: "incoming",
      url,
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
      url,
      method: "PATCH",
      isEnabled: false,
      headers: { "X-A": "••••" },
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
      headers: { "X-B": "••••" },
      name: "Only name",
    });
    expect((await storedWebhook(hook.id)).secretTokenSealed).toBeNull();
    expect(await storedHeaders(hook.id)).toEqual({ "X-B": "2" });
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

  it("a URL moved to another server drops the secret and the headers, unless the change gives new ones", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    // The owner's receiver checks X-Webhook-Secret, a token shared with it and never shown again.
    const settings = { secretToken: "crm-shared-secret-0123456789", headers: { Authorization: "Bearer crm-token" } };
    const hook = await createWebhook(owner, inbox.id, settings);
    const manager = await seedMember(owner, ["webhook.manage"]);
    const path = webhooksPath(inbox.id, hook.id);
    // The MCP test server is another origin on loopback (allowed in the tests) that records each request's headers.
    const elsewhere = `/${unique("collect")}`;
    const moved = await manager.fetch("PATCH", path, { url: `${env.TEST_MCP_URL}${elsewhere}` });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await moved.json()).toMatchObject({ hasSecretToken: false, headers: {} });
    expect((await manager.fetch("POST", `${path}send-test/`)).status).toBe(200);
    const stats = await (await fetch(`${env.TEST_MCP_URL}/stats`)).json<McpTestServer["stats"]>();
    const got = stats.requests.find((r) => r.path === elsewhere);
    expect(got, "the push reached the new server").toMatchObject({ webhookSecret: null, authorization: null });

    // Given with the move, new ones go with it; masked values sent back (as the console's form does) are dropped.
    const again = await ownersWebhook(settings);
    const shown = await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/">(
      await again.owner.fetch("GET", again.path),
    );
    const given = await again.owner.fetch("PATCH", again.path, {
      url: `${env.TEST_MCP_URL}/${unique("given")}`,
      secretToken: "a-new-secret-for-it",
      headers: { ...shown.headers, "X-Team": "support" },
    });
    expect(await given.json()).toMatchObject({ hasSecretToken: true, headers: { "X-Team": "••••" } });
    expect(await storedHeaders(again.hook.id)).toEqual({ "X-Team": "support" });

    // Another path of the same server keeps both.
    const near = await ownersWebhook(settings);
    expect((await near.owner.fetch("PATCH", near.path, { url: `${env.TEST_RECEIVER_URL}/ok/other` })).status).toBe(200);
    expect(await storedHeaders(near.hook.id)).toEqual(settings.headers);
    expect((await storedWebhook(near.hook.id)).secretTokenSealed).not.toBeNull();
  });

  it("header values sent back masked keep the stored ones; a mask of nothing stored is 400", async () => {
    const headers = { Authorization: "Bearer crm-live-token-0123456789abcdef", "X-Team": "support" };
    const { owner, hook, path } = await ownersWebhook({ headers });
    const shown = await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/">(await owner.fetch("GET", path));
    const saved = await owner.fetch("PUT", path, {
      ...shown,
      name: "Renamed",
      headers: { ...shown.headers, "X-B": "2" },
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(await storedHeaders(hook.id)).toEqual({ ...headers, "X-B": "2" });
    const err = await expectError(await owner.fetch("PATCH", path, { headers: { "X-C": "…abcd" } }), 400, "invalid");
    expect(Object.keys(err.errors!)).toEqual(["headers"]);
    expect(await storedHeaders(hook.id)).toEqual({ ...headers, "X-B": "2" });
  });

  it("headers stored in clear before sealing are sent, shown masked and kept, and the cron seals them", async () => {
    const token = "Bearer legacy-token-0123456789";
    const received = `/ok/${unique("legacy")}`;
    const legacy = async () => {
      const made = await ownersWebhook({ url: `${env.TEST_RECEIVER_URL}${received}` });
      // As a row written before migration 0056: the values in clear, nothing sealed.
      await db()
        .update(webhooks)
        .set({ headers: { Authorization: token }, headersSealed: null, headersMasked: null })
        .where(eq(webhooks.id, made.hook.id));
      return made;
    };
    const { owner, hook, path } = await legacy();
    const shown = await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/">(await owner.fetch("GET", path));
    expect(shown.headers).toEqual({ Authorization: "…6789" });
    const sentWith = async () => {
      expect((await owner.fetch("POST", `${path}send-test/`)).status).toBe(200);
      const requests = await receivedAt(received);
      return requests.at(-1)!.headers.authorization;
    };
    expect(await sentWith()).toBe(token);

    await sealLegacyHeaders(env, db(), 10_000);
    const row = await storedWebhook(hook.id);
    expect(row.headers).toBeNull();
    expect(JSON.stringify(row)).not.toContain("legacy-token");
    expect(await storedHeaders(hook.id)).toEqual({ Authorization: token });
    expect(await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/">(await owner.fetch("GET", path))).toEqual(shown);
    expect(await sentWith()).toBe(token);

    // The form sending the mask back keeps the clear value, sealed from then on.
    const other = await legacy();
    const saved = await other.owner.fetch("PATCH", other.path, { headers: shown.headers, name: "Renamed" });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await storedWebhook(other.hook.id)).headers).toBeNull();
    expect(await storedHeaders(other.hook.id)).toEqual({ Authorization: token });
  });

  it("two changes at once cannot make a webhook of a combination either one alone is refused", async () => {
    for (let i = 0; i < 5; i++) {
      const { owner, path } = await ownersWebhook();
      const [a, b] = await Promise.all([
        owner.fetch("PATCH", path, { conversationEvents: true }),
        owner.fetch("PATCH", path, { templatePreset: "genesys_cloud" }),
      ]);
      const hook = await bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/">(await owner.fetch("GET", path));
      // Each alone is fine; together they are refused (checkWebhookRules): genesys_cloud has no shape for lifecycle
      // events, and its receiver would answer errors until the webhook is disabled.
      expect(hook.templatePreset === "genesys_cloud" && hook.conversationEvents, `try ${i}`).toBe(false);
      // The one checked against the other's result is refused, naming the field.
      expect([a.status, b.status].sort(), `try ${i}`).toEqual([200, 400]);
    }
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
