/// <reference types="vite/types/importMeta.d.ts" />
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contacts, models } from "../../src/db/schema";
import { SELF } from "cloudflare:test";
import { REQUIRED_BINDINGS } from "../../src/services/settings";
import { call, data, db, expectError, fetchWithSettings, seedOwner, type Actor, type Settings } from "../harness";
import { healthOf } from "../support/api";
import { KINDS, validBody } from "../routes/models/fixtures";
import { HOOK_URL, createInbox, storedWebhooks, webhooksPath } from "../routes/webhooks/fixtures";

/** A deployment started by hand without `ENCRYPTION_KEY` (CONTRACT section 2). */
const UNSET: Settings = { ENCRYPTION_KEY: undefined };

/** Creating a model with an API key to store under `settings`: the body of the 503 not_configured refusing it. */
const modelKeyRefused = async (owner: Actor, settings: Settings) =>
  await expectError(
    await owner.fetch("POST", KINDS[0].path, validBody(KINDS[0], { apiKey: "sk-secret-123456" }), { settings }),
    503,
    "not_configured",
  );

/** The models of `owner`'s organization, as stored. */
const storedModels = (owner: Actor) =>
  db().select().from(models).where(eq(models.organizationId, owner.organizationId));

describe("missing settings are a clear 503, never a 500 (CONTRACT section 2)", () => {
  it("storing a model's apiKey without ENCRYPTION_KEY: 503 not_configured naming it, nothing written", async () => {
    const owner = await seedOwner();
    const body = await modelKeyRefused(owner, UNSET);
    expect(body.detail).toContain("ENCRYPTION_KEY");
    expect(await storedModels(owner)).toHaveLength(0);
    // Without a secret to store, the same deployment creates the model.
    const res = await owner.fetch("POST", KINDS[0].path, validBody(KINDS[0]), { settings: UNSET });
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it("a webhook's secretToken without ENCRYPTION_KEY is 503 naming it, and nothing is written", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const res = await owner.fetch(
      "POST",
      webhooksPath(inbox.id),
      { name: "CRM", direction: "outgoing", url: HOOK_URL, secretToken: "s3cret-token" },
      { settings: UNSET },
    );
    expect((await expectError(res, 503, "not_configured")).detail).toContain("ENCRYPTION_KEY");
    expect(await storedWebhooks(inbox.id)).toHaveLength(0);
  });

  it("a contact's credentials without ENCRYPTION_KEY are 503, and no contact is written", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch(
      "POST",
      "/contacts/",
      { name: "Ann", mcpCredentials: [{ server: "crm", headers: { Authorization: "Bearer x" } }] },
      { settings: UNSET },
    );
    await expectError(res, 503, "not_configured");
    const plane = await data(owner.organizationId);
    expect(await plane.select().from(contacts).where(eq(contacts.organizationId, owner.organizationId))).toHaveLength(
      0,
    );
  });

  it("the placeholders of .dev.vars.example count as not set: 503 naming the setting; /health names them", async () => {
    const PLACEHOLDERS: Settings = {
      ENCRYPTION_KEY: "replace-with-a-long-random-string",
      BOOTSTRAP_API_KEY: "ak_replaceWithFortyLettersOrDigits000000000",
      BOOTSTRAP_PASSWORD: "replace-with-a-password",
    };
    const owner = await seedOwner();
    const body = await modelKeyRefused(owner, PLACEHOLDERS);
    expect(body.detail).toMatch(/^ENCRYPTION_KEY still holds the placeholder of \.dev\.vars\.example/);
    expect(await storedModels(owner)).toHaveLength(0);
    const health = await healthOf(await call("GET", "/health", undefined, {}, PLACEHOLDERS));
    expect(health.status).toBe("degraded");
    expect(health.settings.map((s) => s.name)).toEqual(["ENCRYPTION_KEY", "BOOTSTRAP_API_KEY", "BOOTSTRAP_PASSWORD"]);
    for (const s of health.settings) expect(s.problem).toContain("still the placeholder of .dev.vars.example");
  });

  it("GET / redirects to the console", async () => {
    const res = await SELF.fetch("http://localhost/", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/console/");
  });

  it("GET /health lists missing and malformed settings, without a key", async () => {
    const healthy = await call("GET", "/health");
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toEqual({ status: "ok", settings: [], resources: [] });
    const degraded = await call(
      "GET",
      "/health",
      undefined,
      {},
      { ENCRYPTION_KEY: undefined, PLANS: "[1", ALLOWED_FILE_SPECS: "{" },
    );
    expect(degraded.status).toBe(200);
    const body = await healthOf(degraded);
    expect(body.status).toBe("degraded");
    expect(body.settings.map((s) => s.name)).toEqual(["ENCRYPTION_KEY", "PLANS", "ALLOWED_FILE_SPECS"]);
    expect(body.settings[1].problem).toContain("not valid JSON");
  });
});

/** Read by Vite at build time (the Workers pool has no file system). */
const wranglerToml = Object.values(
  import.meta.glob("../../wrangler.toml", { query: "?raw", import: "default", eager: true }),
)[0] as string;

/** `[[section]]` tables of wrangler.toml with their `key = "value"` lines (enough for its binding tables). */
function tomlTables(text: string): { section: string; values: Record<string, string> }[] {
  const tables: { section: string; values: Record<string, string> }[] = [];
  let current: { section: string; values: Record<string, string> } | null = null;
  for (const line of text.split("\n")) {
    const header = /^\s*\[\[([\w.]+)\]\]/.exec(line) ?? /^\s*\[([\w.]+)\]/.exec(line);
    if (header) {
      current = { section: line.trim().startsWith("[[") ? header[1] : `[${header[1]}]`, values: {} };
      tables.push(current);
      continue;
    }
    const kv = /^\s*([\w-]+)\s*=\s*"([^"]*)"/.exec(line);
    if (kv && current) current.values[kv[1]] = kv[2];
  }
  return tables;
}

describe("GET /health names the deploy's missing resources", () => {
  it("a deploy without a queue, the bucket, a Durable Object namespace, the database: degraded, named", async () => {
    // The real bindings without four (unset), as a deploy that never created them would run.
    const lacking = { EVALUATION_QUEUE: undefined, FILES: undefined, CONVERSATION: undefined, DB: undefined };
    const res = await fetchWithSettings(new Request("http://localhost/health"), lacking);
    expect(res.status).toBe(200);
    const body = await healthOf(res);
    expect(body.status).toBe("degraded");
    expect(body.settings).toEqual([]);
    expect(body.resources.map((r) => r.name)).toEqual(["DB", "FILES", "CONVERSATION", "EVALUATION_QUEUE"]);
    const queue = body.resources.find((r) => r.name === "EVALUATION_QUEUE")!;
    expect(queue.kind).toBe("queue");
    expect(queue.problem).toContain('"chatbot-evaluation"');
    // A binding of the wrong kind (a variable where a bucket belongs) is as missing.
    const wrong = await call(
      "GET",
      "/health",
      undefined,
      {},
      { FILES: "assistant-platform-files" as unknown as R2Bucket },
    );
    expect((await healthOf(wrong)).resources.map((r) => r.name)).toEqual(["FILES"]);
  });

  it("checks exactly the D1 databases, R2 buckets, Durable Objects and queues wrangler.toml binds", () => {
    const tables = tomlTables(wranglerToml);
    const bound = [
      ...tables.filter((t) => t.section === "d1_databases").map((t) => [t.values.binding, t.values.database_name]),
      ...tables.filter((t) => t.section === "r2_buckets").map((t) => [t.values.binding, t.values.bucket_name]),
      ...tables
        .filter((t) => t.section === "durable_objects.bindings")
        .map((t) => [t.values.name, t.values.class_name]),
      ...tables.filter((t) => t.section === "queues.producers").map((t) => [t.values.binding, t.values.queue]),
    ];
    expect(bound.length).toBeGreaterThan(0);
    expect(new Map(REQUIRED_BINDINGS.map((b) => [b.name, b.resource]))).toEqual(new Map(bound as [string, string][]));
  });
});
