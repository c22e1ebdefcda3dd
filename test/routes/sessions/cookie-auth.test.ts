import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { consoleSessions } from "../../../src/db/schema";
import { SESSION_IDLE_MS, sessionExpired } from "../../../src/services/console-sessions";
import { sessionRecordFor } from "../../../src/services/credentials";
import { call, db, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied } from "../../support/refusals";
import { PASSWORD, browserWith, sessionCookieOf, signIn, withPassword } from "./fixtures";
import { bodyOf } from "../../support/api";

const backdate = (sessionId: string, lastUsedAt: number) =>
  db().update(consoleSessions).set({ lastUsedAt }).where(eq(consoleSessions.id, sessionId));
const lastUsed = async (sessionId: string) =>
  (await db().select().from(consoleSessions).where(eq(consoleSessions.id, sessionId)))[0].lastUsedAt;

describe("requests with the console's session cookie", () => {
  it("act as the signed-in user, under both prefixes", async () => {
    const owner = await withPassword(await seedOwner());
    const browser = await signIn({ email: owner.email, password: PASSWORD });
    for (const prefix of ["/api/v1", "/api"]) {
      const res = await browser.fetch("GET", "/users/current/", undefined, { prefix });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: owner.userId, email: owner.email });
    }
    const created = await browser.fetch("POST", "/api-keys/", { name: "from the console" });
    expect(created.status).toBe(201);
  });

  it("have the permissions of the user's API key: a member without chatbot.manage is refused either way", async () => {
    const owner = await seedOwner();
    const member = await withPassword(await seedMember(owner, ["chatbot.view"]));
    const browser = await signIn({ email: member.email, password: PASSWORD });
    const body = { name: "Ava", largeLanguageModel: "00000000-0000-7000-8000-000000000001" };
    const headers = { "X-Organization-Id": owner.organizationId };
    await expectDenied(await browser.fetch("POST", "/chatbots/", body, { headers }));
    await expectDenied(await member.fetch("POST", "/chatbots/", body));
    expect((await browser.fetch("GET", "/chatbots/", undefined, { headers })).status).toBe(200);
  });

  it("403 for a write without the console's own Origin (missing or another site's); reads need none", async () => {
    const owner = await seedOwner();
    const browser = await signIn({ apiKey: owner.key });
    const noOrigin = await call(
      "POST",
      "/api/v1/api-keys/",
      { name: "csrf" },
      { Cookie: `console_session=${browser.cookie}` },
    );
    await expectDenied(noOrigin);
    await expectDenied(
      await browser.fetch("POST", "/api-keys/", { name: "csrf" }, { headers: { Origin: "https://evil.example" } }),
    );
    await expectDenied(
      await browser.fetch("DELETE", "/auth/sessions/current/", undefined, { headers: { Origin: "null" } }),
    );
    const keys = await bodyOf<"GET /api-keys/">(await browser.fetch("GET", "/api-keys/"));
    expect(keys.results.map((k) => k.name)).not.toContain("csrf");
    // The session survived the refused sign-out.
    expect((await browser.fetch("GET", "/users/current/")).status).toBe(200);
  });

  it("401 for an unknown cookie, which the answer clears; an Authorization header wins over a cookie", async () => {
    const owner = await seedOwner();
    const res = await browserWith("cs_NoSuchSession").fetch("GET", "/users/current/");
    expect(sessionCookieOf(res)).toMatchObject({ value: "" });
    expect(sessionCookieOf(res)!.attributes).toContain("Max-Age=0");
    await expectError(res, 401, "not_authenticated");
    const browser = await signIn({ apiKey: owner.key });
    await expectError(
      await browser.fetch("GET", "/users/current/", undefined, {
        headers: { Authorization: "Api-Key ak_NoSuchKey000000000000000000000000000000" },
      }),
      401,
    );
  });

  it("lapse 12 hours after their last use: 401, and the cookie is cleared", async () => {
    const owner = await seedOwner();
    // Backdated before the first authenticated request, so no isolate remembers the session yet.
    const browser = await signIn({ apiKey: owner.key });
    await backdate(browser.sessionId, Date.now() - SESSION_IDLE_MS - 1);
    const res = await browser.fetch("GET", "/users/current/");
    expect(sessionCookieOf(res)?.value).toBe("");
    expect((await expectError(res, 401, "not_authenticated")).detail).toMatch(/expired/);
  });

  it(
    "slide: a session used within 12 hours is renewed (its last use written, its cookie's Max-Age again 12 " + "hours)",
    async () => {
      const owner = await seedOwner();
      const browser = await signIn({ apiKey: owner.key });
      const elevenHoursAgo = Date.now() - 11 * 3_600_000;
      await backdate(browser.sessionId, elevenHoursAgo);
      const res = await browser.fetch("GET", "/users/current/");
      expect(res.status).toBe(200);
      expect(sessionCookieOf(res)).toMatchObject({ value: browser.cookie });
      expect(sessionCookieOf(res)!.attributes).toContain("Max-Age=43200");
      await expect.poll(() => lastUsed(browser.sessionId)).toBeGreaterThan(elevenHoursAgo + 10 * 3_600_000);
    },
  );

  it("idle expiry follows the clock it is given", async () => {
    const owner = await seedOwner();
    const browser = await signIn({ apiKey: owner.key });
    const row = (await sessionRecordFor(db(), browser.cookie))!.session;
    expect(sessionExpired(row, row.lastUsedAt + SESSION_IDLE_MS - 1)).toBe(false);
    expect(sessionExpired(row, row.lastUsedAt + SESSION_IDLE_MS)).toBe(true);
  });

  it("are counted by the rate limit per session", async () => {
    const owner = await seedOwner();
    const browser = await signIn({ apiKey: owner.key });
    const res = await call(
      "GET",
      "/api/v1/users/current/",
      undefined,
      { Cookie: `console_session=${browser.cookie}` },
      { RATE_LIMIT_PER_MINUTE: "1" },
    );
    expect(res.status).toBe(200);
    await expectError(
      await call(
        "GET",
        "/api/v1/users/current/",
        undefined,
        { Cookie: `console_session=${browser.cookie}` },
        { RATE_LIMIT_PER_MINUTE: "1" },
      ),
      429,
      "throttled",
    );
  });
});
