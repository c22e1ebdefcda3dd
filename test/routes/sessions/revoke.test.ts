import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, NO_SUCH_ID, seedOwner } from "../../harness";
import { sessionCookieOf, sessionsOf, signIn } from "./fixtures";

describe("DELETE /auth/sessions/{id}/", () => {
  it.each(PREFIXES)("revokes another session of the user at once under %s", async (prefix) => {
    const owner = await seedOwner();
    const [here, there] = await Promise.all([signIn({ apiKey: owner.key }), signIn({ apiKey: owner.key })]);
    expect((await there.fetch("GET", "/users/current/")).status).toBe(200);
    const res = await here.fetch("DELETE", `/auth/sessions/${there.sessionId}/`, undefined, { prefix });
    expect(res.status).toBe(204);
    expect(sessionCookieOf(res)).toBeNull();
    await expectError(await there.fetch("GET", "/users/current/"), 401, "not_authenticated");
    expect((await here.fetch("GET", "/users/current/")).status).toBe(200);
    expect((await sessionsOf(owner.userId)).find((s) => s.id === there.sessionId)?.revokedAt).toBeTruthy();
  });

  it("revoking the session of the request clears its cookie", async () => {
    const owner = await seedOwner();
    const browser = await signIn({ apiKey: owner.key });
    const res = await browser.fetch("DELETE", `/auth/sessions/${browser.sessionId}/`);
    expect(res.status).toBe(204);
    expect(sessionCookieOf(res)?.value).toBe("");
  });

  it(
    "404 for another user's session, an unknown id, a malformed id, or one already revoked; the other user's " +
      "session keeps working",
    async () => {
      const owner = await seedOwner();
      const stranger = await seedOwner();
      const theirs = await signIn({ apiKey: stranger.key });
      await expectError(await owner.fetch("DELETE", `/auth/sessions/${theirs.sessionId}/`), 404, "not_found");
      expect((await theirs.fetch("GET", "/users/current/")).status).toBe(200);
      await expectError(await owner.fetch("DELETE", `/auth/sessions/${NO_SUCH_ID}/`), 404);
      await expectError(await owner.fetch("DELETE", "/auth/sessions/not-a-uuid/"), 404);
      const mine = await signIn({ apiKey: owner.key });
      expect((await owner.fetch("DELETE", `/auth/sessions/${mine.sessionId}/`)).status).toBe(204);
      await expectError(await owner.fetch("DELETE", `/auth/sessions/${mine.sessionId}/`), 404);
    },
  );

  it("401 without credentials", async () => {
    await expectError(await call("DELETE", `/api/v1/auth/sessions/${NO_SUCH_ID}/`), 401, "not_authenticated");
  });
});
