import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { countRows, call, expectError, seedOwner, type Settings } from "../harness";
import { pageOf } from "../support/api";

const PASSWORD = "generated-password-1";
const signIn = (email: string, password: string, settings: Settings = { BOOTSTRAP_PASSWORD: PASSWORD }) =>
  call("POST", "/api/v1/auth/sessions/", { email, password }, {}, settings);
const userCount = () => countRows(env.DB, "users");

// This file's storage starts empty (storage is per test file): no user exists yet.
describe('the example\'s placeholders and BOOTSTRAP_PASSWORD before any user (decisions.md, "Safe defaults")', () => {
  it("the placeholder bootstrap key never creates an administrator", async () => {
    const placeholder = "ak_replaceWithFortyLettersOrDigits000000000";
    const res = await call(
      "GET",
      "/api/v1/users/current/",
      undefined,
      { Authorization: `Api-Key ${placeholder}` },
      { BOOTSTRAP_API_KEY: placeholder },
    );
    await expectError(res, 401, "not_authenticated");
    expect(await userCount()).toBe(0);
  });

  it("a wrong password, another e-mail or the placeholder password creates no one", async () => {
    await expectError(await signIn("admin@example.com", "not-the-password"), 400, "invalid_credentials");
    await expectError(await signIn("someone@example.com", PASSWORD), 400, "invalid_credentials");
    const placeholder = "replace-with-a-password";
    await expectError(
      await signIn("admin@example.com", placeholder, { BOOTSTRAP_PASSWORD: placeholder }),
      400,
      "invalid_credentials",
    );
    expect(await userCount()).toBe(0);
  });

  it("signing in with BOOTSTRAP_EMAIL and BOOTSTRAP_PASSWORD creates the administrator, key included", async () => {
    const res = await signIn("Admin@Example.com", PASSWORD);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({
      user: { email: "admin@example.com", isStaff: true },
      session: { method: "password" },
    });
    expect(await userCount()).toBe(1);
    // The password is theirs now, whatever the setting says later.
    expect((await signIn("admin@example.com", PASSWORD, {})).status).toBe(201);
  });
});

describe("bootstrap from BOOTSTRAP_API_KEY (CONTRACT section 3)", () => {
  const key = env.BOOTSTRAP_API_KEY!;
  const asBootstrap = (method: string, path: string, body?: unknown) =>
    call(method, `/api/v1${path}`, body, { Authorization: `Api-Key ${key}` });

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
    expect(await userCount()).toBe(1);
  });

  it("once revoked, the key is not bootstrapped again while users exist", async () => {
    const keys = await pageOf<"GET /api-keys/">(await asBootstrap("GET", "/api-keys/"));
    expect((await asBootstrap("DELETE", `/api-keys/${keys.results[0].id}/`)).status).toBe(204);
    await seedOwner();
    await expectError(await asBootstrap("GET", "/users/current/"), 401, "not_authenticated");
  });
});

describe("a bootstrap administrator without a password (created before BOOTSTRAP_PASSWORD)", () => {
  it("gets BOOTSTRAP_PASSWORD on their first sign-in with it; a user who is not staff never does", async () => {
    await env.DB.prepare("UPDATE users SET password_hash = NULL WHERE email = 'admin@example.com'").run();
    await expectError(await signIn("admin@example.com", "wrong-password-2"), 400, "invalid_credentials");
    const first = await signIn("admin@example.com", PASSWORD);
    expect(first.status, await first.clone().text()).toBe(201);
    const stored = await env.DB.prepare("SELECT password_hash FROM users WHERE email = 'admin@example.com'").first<{
      password_hash: string | null;
    }>();
    expect(stored!.password_hash).toBeTruthy();
    expect(stored!.password_hash).not.toContain(PASSWORD);
    // A user who is not staff never gets it (a member whose e-mail someone set to the bootstrap address, say).
    await env.DB.prepare("UPDATE users SET password_hash = NULL, is_staff = 0 WHERE email = 'admin@example.com'").run();
    await expectError(await signIn("admin@example.com", PASSWORD), 400, "invalid_credentials");
  });
});
