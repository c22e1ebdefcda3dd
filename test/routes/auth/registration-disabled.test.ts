import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../src/index";

// The worker itself, called with REGISTRATION_ENABLED switched off (SELF runs with "true", vitest.config.ts).
describe("POST /auth/registration/ with REGISTRATION_ENABLED=false", () => {
  it("403, and no user is written", async () => {
    const email = `closed-${crypto.randomUUID()}@example.com`;
    const ctx = createExecutionContext();
    const res = await worker.fetch!(
      new Request("http://localhost/api/v1/auth/registration/", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          email,
          password1: "correct horse battery",
          password2: "correct horse battery",
          name: "Closed",
          company: "Closed Co",
        }),
      }) as never,
      { ...env, REGISTRATION_ENABLED: "false" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      code: "permission_denied",
      detail: 'Registration is disabled on this server (REGISTRATION_ENABLED is not "true").',
    });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(email).first("n")).toBe(0);
  });

  it('is closed when the setting is absent too (wrangler.toml\'s default is "false")', async () => {
    const ctx = createExecutionContext();
    const { REGISTRATION_ENABLED: _, ...without } = env as unknown as Record<string, unknown>;
    const res = await worker.fetch!(
      new Request("http://localhost/api/v1/auth/registration/", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          email: `unset-${crypto.randomUUID()}@example.com`,
          password1: "correct horse battery",
          password2: "correct horse battery",
          name: "U",
          company: "U Co",
        }),
      }) as never,
      without as never,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(403);
  });
});
