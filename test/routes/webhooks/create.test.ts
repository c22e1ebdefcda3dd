import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { decryptSecret } from "../../../src/lib/crypto";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { expectInvalid } from "../../support/refusals";
import { HOSTILE } from "../../support/hostile-urls";
import { bodyOf } from "../../support/api";
import {
  HOOK_URL,
  createInbox,
  createWebhook,
  storedHeaders,
  storedWebhook,
  storedWebhooks,
  webhooksPath,
} from "./fixtures";

const VALID_TEMPLATE = '{"id": {{ message.id | tojson }}, "text": {{ message.content | tojson }}}';

describe("POST /inboxes/{inboxId}/webhooks/", () => {
  it.each(PREFIXES)(
    "creates a webhook with every field, snake_case accepted, the secret write-only (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const inbox = await createInbox(owner);
      const secret = `whsec-${crypto.randomUUID()}`;
      const body = {
        name: "CRM sync",
        direction: "incoming",
        is_enabled: false,
        url: HOOK_URL,
        method: "PUT",
        headers: { Authorization: "Bearer 123", "X-Tenant_Id": "acme" },
        template_preset: "genesys_cloud",
        secret_token: secret,
        retry_failed_deliveries: true,
      };
      const res = await owner.fetch("POST", webhooksPath(inbox.id), body, { prefix });
      const text = await res.clone().text();
      expect(res.status, text).toBe(201);
      expect(text).not.toContain(secret);
      const hook = await bodyOf<"POST /inboxes/{inboxId}/webhooks/">(res);
      expect(hook).toMatchObject({
        inbox: { id: inbox.id, name: inbox.name },
        name: "CRM sync",
        direction: "incoming",
        isEnabled: false,
        url: HOOK_URL,
        method: "PUT",
        // Values are write-only, as the secret is: stored as given, shown masked.
        headers: { Authorization: "••••", "X-Tenant_Id": "••••" },
        templatePreset: "genesys_cloud",
        customTemplate: null,
        retryFailedDeliveries: true,
        disabledAt: null,
        disabledReason: null,
        hasSecretToken: true,
        secretTokenPreview: `…${secret.slice(-4)}`,
      });
      expect(hook).not.toHaveProperty("secretToken");
      expect(hook.createdAt).toMatch(/^\d+$/);
      const row = await storedWebhook(hook.id);
      expect(row.organizationId).toBe(owner.organizationId);
      // Sealed at rest, as the secret is: no value is in the row in clear.
      expect(JSON.stringify(row)).not.toContain("Bearer 123");
      expect(JSON.stringify(row)).not.toContain("acme");
      expect(await storedHeaders(hook.id)).toEqual(body.headers);
      expect(row.secretTokenSealed).not.toContain(secret);
      expect(await decryptSecret(row.secretTokenSealed!, env.ENCRYPTION_KEY)).toBe(secret);
      // Read back through the API: still never in full.
      const again = await (await owner.fetch("GET", webhooksPath(inbox.id, hook.id), undefined, { prefix })).text();
      expect(again).not.toContain(secret);
      expect(JSON.parse(again)).toEqual(hook);
    },
  );

  it("fills the defaults: enabled, POST, no headers, the standard preset, no secret, no retries", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const hook = await createWebhook(owner, inbox.id, { name: "Minimal" });
    expect(hook).toMatchObject({
      name: "Minimal",
      direction: "outgoing",
      isEnabled: true,
      method: "POST",
      headers: {},
      templatePreset: "service_standard",
      customTemplate: null,
      hasSecretToken: false,
      secretTokenPreview: null,
      retryFailedDeliveries: false,
      disabledAt: null,
      disabledReason: null,
    });
    expect((await storedWebhook(hook.id)).retryFailedDeliveries).toBe(false);
  });

  it("a custom preset with a template that renders JSON is accepted", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const hook = await createWebhook(owner, inbox.id, { templatePreset: "custom", customTemplate: VALID_TEMPLATE });
    expect(hook).toMatchObject({ templatePreset: "custom", customTemplate: VALID_TEMPLATE });
  });

  it.each([
    [{ direction: "outgoing", url: HOOK_URL }, "name"],
    [{ name: "x", url: HOOK_URL }, "direction"],
    [{ name: "x", direction: "sideways", url: HOOK_URL }, "direction"],
    [{ name: "x", direction: "outgoing" }, "url"],
    [{ name: "x", direction: "outgoing", url: HOOK_URL, method: "GET" }, "method"],
    [{ name: "x", direction: "outgoing", url: HOOK_URL, isEnabled: "yes" }, "isEnabled"],
    [{ name: "x", direction: "outgoing", url: HOOK_URL, templatePreset: "fancy" }, "templatePreset"],
    [{ name: "x", direction: "outgoing", url: HOOK_URL, headers: { "Bad Header": "1" } }, "headers"],
    [{ name: "x", direction: "outgoing", url: HOOK_URL, headers: { "X-Ok": "line\r\nbreak" } }, "headers"],
    [{ name: "x", direction: "outgoing", url: HOOK_URL, headers: { "X-Number": 1 } }, "headers.X-Number"],
    [{ name: "x", direction: "outgoing", url: HOOK_URL, headers: ["X-A"] }, "headers"],
    [{ name: "x", direction: "outgoing", url: HOOK_URL, templatePreset: "custom" }, "customTemplate"],
    [
      { name: "x", direction: "outgoing", url: HOOK_URL, templatePreset: "custom", customTemplate: "   " },
      "customTemplate",
    ],
    [
      { name: "x", direction: "outgoing", url: HOOK_URL, templatePreset: "custom", customTemplate: "{% if %}" },
      "customTemplate",
    ],
    [
      {
        name: "x",
        direction: "outgoing",
        url: HOOK_URL,
        templatePreset: "custom",
        customTemplate: "hello {{ message.id }}",
      },
      "customTemplate",
    ],
    [{ name: "x", direction: "outgoing", url: HOOK_URL, secretToken: "" }, "secretToken"],
    [{ name: "x", direction: "outgoing", url: HOOK_URL, retryFailedDeliveries: "yes" }, "retryFailedDeliveries"],
    [{ name: "x", direction: "outgoing", url: HOOK_URL, secretToken: "two\nlines" }, "secretToken"],
  ])("bad input %j is a 400 naming %s, and writes nothing", async (body, field) => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const err = await expectError(await owner.fetch("POST", webhooksPath(inbox.id), body), 400, "invalid");
    expect(Object.keys(err.errors!)).toContain(field);
    expect(await storedWebhooks(inbox.id)).toHaveLength(0);
  });

  it.each([
    "Content-Type",
    "content-length",
    "HOST",
    "X-Webhook-Secret",
    "webhook-id",
    "Webhook-Timestamp",
    "webhook-signature",
  ])("a custom %s header is refused (the service sets it)", async (name) => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const res = await owner.fetch("POST", webhooksPath(inbox.id), {
      name: "x",
      direction: "outgoing",
      url: HOOK_URL,
      headers: { [name]: "v" },
    });
    const err = await expectError(res, 400, "invalid");
    expect(err.errors!.headers[0]).toContain(name);
    expect(await storedWebhooks(inbox.id)).toHaveLength(0);
  });

  describe("SSRF protection on save", () => {
    let owner: Actor;
    let inbox: { id: string };
    beforeAll(async () => {
      owner = await seedOwner();
      inbox = await createInbox(owner);
    });
    it.each(HOSTILE)("refuses %s with the reason (%s), and writes nothing", async (url, word) => {
      const err = await expectInvalid(
        await owner.fetch("POST", webhooksPath(inbox.id), { name: "x", direction: "outgoing", url }),
        "url",
      );
      expect(err.errors!.url[0].toLowerCase()).toContain(word.toLowerCase());
      expect(await storedWebhooks(inbox.id)).toHaveLength(0);
    });
  });

  it("a loopback receiver named in WEBHOOK_ALLOWED_HOSTS is accepted", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const hook = await createWebhook(owner, inbox.id, { url: `${env.TEST_RECEIVER_URL}/ok/allowed` });
    expect(hook.url).toBe(`${env.TEST_RECEIVER_URL}/ok/allowed`);
  });

  it("403 for a member without webhook.manage (inbox.manage is not enough); 201 with it", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const body = { name: "x", direction: "outgoing", url: HOOK_URL };
    const inboxManager = await seedMember(owner, ["inbox.manage"]);
    await expectError(await inboxManager.fetch("POST", webhooksPath(inbox.id), body), 403, "permission_denied");
    expect(await storedWebhooks(inbox.id)).toHaveLength(0);
    const manager = await seedMember(owner, ["webhook.manage"]);
    expect((await manager.fetch("POST", webhooksPath(inbox.id), body)).status).toBe(201);
  });

  it("404 for another organization's inbox, an unknown or a malformed inbox id", async () => {
    const owner = await seedOwner();
    const theirs = await createInbox(await seedOwner());
    const body = { name: "x", direction: "outgoing", url: HOOK_URL };
    await expectError(await owner.fetch("POST", webhooksPath(theirs.id), body), 404, "not_found");
    expect(await storedWebhooks(theirs.id)).toHaveLength(0);
    await expectError(await owner.fetch("POST", webhooksPath(NO_SUCH_ID), body), 404, "not_found");
    await expectError(await owner.fetch("POST", webhooksPath("nope"), body), 404, "not_found");
  });

  it("401 without a key", async () => {
    await expectError(
      await call("POST", `/api/v1${webhooksPath(NO_SUCH_ID)}`, { name: "x", direction: "outgoing", url: HOOK_URL }),
      401,
      "not_authenticated",
    );
  });
});
