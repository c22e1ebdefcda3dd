import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys } from "../../../src/db/schema";
import { NO_SUCH_ID, PREFIXES, call, db, expectError, seedOwner } from "../../harness";
import { bodyOf } from "../../support/api";
import { PASSWORD, signIn, withPassword } from "../sessions/fixtures";

const useKey = (key: string) => call("GET", "/api/v1/users/current/", undefined, { Authorization: `Api-Key ${key}` });

async function createKey(
  owner: Awaited<ReturnType<typeof seedOwner>>,
  body: Record<string, unknown> = { name: "temp" },
) {
  const res = await owner.fetch("POST", "/api-keys/", body);
  expect(res.status).toBe(201);
  return await bodyOf<"POST /api-keys/">(res);
}

describe("DELETE /api-keys/{id}/", () => {
  it.each(PREFIXES)("revokes at once under %s: the key then gets 401, and shows revokedAt", async (prefix) => {
    const owner = await seedOwner();
    const temp = await createKey(owner);
    expect((await useKey(temp.key)).status).toBe(200);
    const res = await owner.fetch("DELETE", `/api-keys/${temp.id}/`, undefined, { prefix });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    await expectError(await useKey(temp.key), 401, "not_authenticated");
    expect((await useKey(owner.key)).status).toBe(200);
    const list = await bodyOf<"GET /api-keys/">(await owner.fetch("GET", "/api-keys/"));
    expect(list.results.find((k) => k.id === temp.id)?.revokedAt).toMatch(/^\d+$/);
    await expectError(await owner.fetch("DELETE", `/api-keys/${temp.id}/`), 404, "not_found");
  });

  it("a key can revoke itself", async () => {
    const owner = await seedOwner();
    const temp = await createKey(owner);
    const [row] = await db().select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, temp.id));
    const res = await call("DELETE", `/api/v1/api-keys/${row.id}/`, undefined, {
      Authorization: `Api-Key ${temp.key}`,
    });
    expect(res.status).toBe(204);
    await expectError(await useKey(temp.key), 401);
  });

  it("404 for another user's key (which keeps working), an unknown id and a malformed id", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const theirs = await createKey(other);
    await expectError(await owner.fetch("DELETE", `/api-keys/${theirs.id}/`), 404, "not_found");
    expect((await useKey(theirs.key)).status).toBe(200);
    await expectError(await owner.fetch("DELETE", `/api-keys/${NO_SUCH_ID}/`), 404, "not_found");
    await expectError(await owner.fetch("DELETE", "/api-keys/not-a-uuid/"), 404, "not_found");
  });

  it("ends the console sessions signed in with the key, and only those", async () => {
    const owner = await withPassword(await seedOwner());
    const temp = await createKey(owner);
    const withKey = await signIn({ apiKey: temp.key });
    const withOtherKey = await signIn({ apiKey: owner.key });
    const byPassword = await signIn({ email: owner.email, password: PASSWORD });
    expect((await withKey.fetch("GET", "/users/current/")).status).toBe(200);
    expect((await owner.fetch("DELETE", `/api-keys/${temp.id}/`)).status).toBe(204);
    await expectError(await withKey.fetch("GET", "/users/current/"), 401, "not_authenticated");
    expect((await withOtherKey.fetch("GET", "/users/current/")).status).toBe(200);
    expect((await byPassword.fetch("GET", "/users/current/")).status).toBe(200);
    const sessions = await bodyOf<"GET /auth/sessions/">(await withOtherKey.fetch("GET", "/auth/sessions/"));
    expect(sessions.results.map((s) => s.id).sort()).toEqual([withOtherKey.sessionId, byPassword.sessionId].sort());
  });

  it("another user's key id ends none of their sessions", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const theirs = await createKey(other);
    const theirSession = await signIn({ apiKey: theirs.key });
    await expectError(await owner.fetch("DELETE", `/api-keys/${theirs.id}/`), 404, "not_found");
    expect((await theirSession.fetch("GET", "/users/current/")).status).toBe(200);
  });

  it("401 without a key", async () => {
    await expectError(await call("DELETE", `/api/v1/api-keys/${NO_SUCH_ID}/`), 401, "not_authenticated");
  });
});

describe("expired keys", () => {
  it("a key whose expires_at has passed (set in the database) gets 401", async () => {
    const owner = await seedOwner();
    const temp = await createKey(owner, { name: "short-lived", expiresAt: Date.now() + 60_000 });
    await db()
      .update(apiKeys)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(apiKeys.id, temp.id));
    const body = await expectError(await useKey(temp.key), 401, "not_authenticated");
    expect(body.detail).toMatch(/expired/i);
    expect((await useKey(owner.key)).status).toBe(200);
  });

  it("a console session signed in with a key lapses with the key, and says when", async () => {
    const owner = await seedOwner();
    const expiresAt = Date.now() + 1_500;
    const temp = await createKey(owner, { name: "blink", expiresAt });
    const browser = await signIn({ apiKey: temp.key });
    const state = await bodyOf<"GET /auth/sessions/current/">(await browser.fetch("GET", "/auth/sessions/current/"));
    expect(Number(state.session.expiresAt)).toBe(expiresAt);
    await new Promise((resolve) => setTimeout(resolve, expiresAt - Date.now() + 100));
    await expectError(await browser.fetch("GET", "/users/current/"), 401, "not_authenticated");
    expect((await useKey(owner.key)).status).toBe(200);
  });

  it("a key stops working once its expiry passes, even right after a successful use", async () => {
    const owner = await seedOwner();
    const temp = await createKey(owner, { name: "blink", expiresAt: Date.now() + 400 });
    expect((await useKey(temp.key)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expectError(await useKey(temp.key), 401, "not_authenticated");
  });
});
