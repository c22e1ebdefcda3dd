import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { call, expectError, seedOwner } from "../harness";

// This file's storage starts empty (storage is per test file): no user exists yet.
describe("bootstrap from BOOTSTRAP_API_KEY (CONTRACT section 3)", () => {
  const key = env.BOOTSTRAP_API_KEY!;
  const asBootstrap = (method: string, path: string, body?: unknown) => call(method, `/api/v1${path}`, body, { Authorization: `Api-Key ${key}` });

  it("the first request with the key creates a staff owner, an organization and that key", async () => {
    expect(key).toMatch(/^ak_/);
    const res = await asBootstrap("GET", "/users/current/");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email: "admin@example.com", isStaff: true });
    const orgs = await env.DB.prepare("SELECT name, approval_status, plan_id FROM organizations").all();
    expect(orgs.results).toHaveLength(1);
    // Approved, on the self-hosted plan that limits nothing (no plans configured).
    expect(orgs.results[0]).toMatchObject({ approval_status: "approved", plan_id: "self-hosted" });
    const stored = await env.DB.prepare("SELECT key_hash FROM api_keys").all<{ key_hash: string }>();
    expect(stored.results.map((r) => r.key_hash)).not.toContain(key);
  });

  it("keeps working and does not bootstrap twice", async () => {
    expect((await asBootstrap("GET", "/users/current/")).status).toBe(200);
    const users = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    expect(users!.n).toBe(1);
  });

  it("once revoked, the key is not bootstrapped again while users exist", async () => {
    const keys = (await (await asBootstrap("GET", "/api-keys/")).json()) as { results: { id: string }[] };
    expect((await asBootstrap("DELETE", `/api-keys/${keys.results[0].id}/`)).status).toBe(204);
    await seedOwner();
    await expectError(await asBootstrap("GET", "/users/current/"), 401, "not_authenticated");
  });
});
