import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { call, registerUser } from "../harness";

// A worker of its own (vitest.config.ts, "own-database"): no user exists yet.
describe("the first sign-up before the bootstrap key or password is used", () => {
  it("creates the first administrator too: the printed key and password keep working", async () => {
    const { email } = await registerUser("a-password-of-ada", "ada");
    const users = await env.DB.prepare("SELECT email, is_staff FROM users ORDER BY is_staff DESC").all();
    expect(users.results).toEqual([
      { email: "admin@example.com", is_staff: 1 },
      { email: email.toLowerCase(), is_staff: 0 },
    ]);
    const current = await call("GET", "/api/v1/users/current/", undefined, {
      Authorization: `Api-Key ${env.BOOTSTRAP_API_KEY}`,
    });
    expect(current.status).toBe(200);
    expect(await current.json()).toMatchObject({ email: "admin@example.com", isStaff: true });
    const password = "generated-password-1";
    const signIn = await call(
      "POST",
      "/api/v1/auth/sessions/",
      { email: "admin@example.com", password },
      {},
      { BOOTSTRAP_PASSWORD: password },
    );
    expect(signIn.status, await signIn.clone().text()).toBe(201);
  });
});
