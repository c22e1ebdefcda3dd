import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contacts, models } from "../../src/db/schema";
import { call, db, expectError, seedOwner, type Settings } from "../harness";
import { KINDS, validBody } from "../routes/models/fixtures";
import { HOOK_URL, createInbox, storedWebhooks, webhooksPath } from "../routes/webhooks/fixtures";

/** A deployment started by hand without `ENCRYPTION_KEY` (CONTRACT section 2). */
const UNSET: Settings = { ENCRYPTION_KEY: undefined };

describe("missing settings are a clear 503, never a 500 (CONTRACT section 2)", () => {
  it("storing a model's apiKey without ENCRYPTION_KEY is 503 not_configured naming it, and nothing is written", async () => {
    const owner = await seedOwner();
    const body = await expectError(await owner.fetch("POST", KINDS[0].path, validBody(KINDS[0], { apiKey: "sk-secret-123456" }), { settings: UNSET }), 503, "not_configured");
    expect(body.detail).toContain("ENCRYPTION_KEY");
    expect(await db().select().from(models).where(eq(models.organizationId, owner.organizationId))).toHaveLength(0);
    // Without a secret to store, the same deployment creates the model.
    const res = await owner.fetch("POST", KINDS[0].path, validBody(KINDS[0]), { settings: UNSET });
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it("a webhook's secretToken without ENCRYPTION_KEY is 503 naming it, and nothing is written", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const res = await owner.fetch("POST", webhooksPath(inbox.id), { name: "CRM", direction: "outgoing", url: HOOK_URL, secretToken: "s3cret-token" }, { settings: UNSET });
    expect((await expectError(res, 503, "not_configured")).detail).toContain("ENCRYPTION_KEY");
    expect(await storedWebhooks(inbox.id)).toHaveLength(0);
  });

  it("a contact's credentials without ENCRYPTION_KEY are 503, and no contact is written", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch("POST", "/contacts/", { name: "Ann", mcpCredentials: [{ server: "crm", headers: { Authorization: "Bearer x" } }] }, { settings: UNSET });
    await expectError(res, 503, "not_configured");
    expect(await db().select().from(contacts).where(eq(contacts.organizationId, owner.organizationId))).toHaveLength(0);
  });

  it("GET /health lists missing and malformed settings, without a key", async () => {
    const healthy = await call("GET", "/health");
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toEqual({ status: "ok", settings: [] });
    const degraded = await call("GET", "/health", undefined, {}, { ENCRYPTION_KEY: undefined, PLANS: "[1", ALLOWED_FILE_SPECS: "{" });
    expect(degraded.status).toBe(200);
    const body = (await degraded.json()) as { status: string; settings: { name: string; problem: string }[] };
    expect(body.status).toBe("degraded");
    expect(body.settings.map((s) => s.name)).toEqual(["ENCRYPTION_KEY", "PLANS", "ALLOWED_FILE_SPECS"]);
    expect(body.settings[1].problem).toContain("not valid JSON");
  });
});
