import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedOwner } from "../../harness";
import { PASSWORD, sessionCookieOf, sessionsOf, signIn, withPassword } from "./fixtures";

describe("DELETE /auth/sessions/current/ (sign out)", () => {
  it.each(PREFIXES)(
    "revokes the session and clears its cookie under %s; the old cookie no longer works",
    async (prefix) => {
      const owner = await withPassword(await seedOwner());
      const browser = await signIn({ email: owner.email, password: PASSWORD }, prefix);
      const res = await browser.fetch("DELETE", "/auth/sessions/current/", undefined, { prefix });
      expect(res.status).toBe(204);
      const cleared = sessionCookieOf(res)!;
      expect(cleared.value).toBe("");
      expect(cleared.attributes).toContain("Max-Age=0");
      await expectError(await browser.fetch("GET", "/users/current/"), 401, "not_authenticated");
      await expectError(await browser.fetch("POST", "/api-keys/", { name: "after sign-out" }), 401);
      expect((await sessionsOf(owner.userId))[0].revokedAt).toBeTruthy();
    },
  );

  it("404 for a request made with an API key, which stays valid", async () => {
    const owner = await seedOwner();
    await expectError(await owner.fetch("DELETE", "/auth/sessions/current/"), 404, "not_found");
    expect((await owner.fetch("GET", "/users/current/")).status).toBe(200);
  });

  it("401 without credentials", async () => {
    await expectError(await call("DELETE", "/api/v1/auth/sessions/current/"), 401, "not_authenticated");
  });
});
