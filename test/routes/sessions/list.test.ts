import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { consoleSessions } from "../../../src/db/schema";
import { SESSION_IDLE_MS } from "../../../src/services/console-sessions";
import { PREFIXES, call, db, expectError, seedOwner } from "../../harness";
import { signIn } from "./fixtures";
import { bodyOf } from "../../support/api";

describe("GET /auth/sessions/", () => {
  it.each(PREFIXES)("lists the user's live sessions, marking the current one, under %s", async (prefix) => {
    const owner = await seedOwner();
    const [a, b, lapsed, revoked] = await Promise.all([1, 2, 3, 4].map(() => signIn({ apiKey: owner.key })));
    await db()
      .update(consoleSessions)
      .set({ lastUsedAt: Date.now() - SESSION_IDLE_MS - 1 })
      .where(eq(consoleSessions.id, lapsed.sessionId));
    expect((await owner.fetch("DELETE", `/auth/sessions/${revoked.sessionId}/`)).status).toBe(204);
    const other = await seedOwner();
    await signIn({ apiKey: other.key });

    const res = await a.fetch("GET", "/auth/sessions/", undefined, { prefix });
    expect(res.status).toBe(200);
    const page = await bodyOf<"GET /auth/sessions/">(res);
    expect(page.count).toBe(2);
    expect(page.results.map((s) => [s.id, s.current]).sort()).toEqual(
      [
        [a.sessionId, true],
        [b.sessionId, false],
      ].sort(),
    );
    // With the API key: the same list, none of them current.
    const byKey = await bodyOf<"GET /auth/sessions/">(await owner.fetch("GET", "/auth/sessions/"));
    expect(byKey.results.every((s) => !s.current && s.method === "api_key")).toBe(true);
  });

  it("400 for a bad page size", async () => {
    const owner = await seedOwner();
    await expectError(await owner.fetch("GET", "/auth/sessions/?page=0"), 400, "invalid");
  });

  it("401 without credentials", async () => {
    await expectError(await call("GET", "/api/v1/auth/sessions/"), 401, "not_authenticated");
  });
});
