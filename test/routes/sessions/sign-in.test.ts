import { describe, expect, it } from "vitest";
import { SELF } from "cloudflare:test";
import { count, eq } from "drizzle-orm";
import { apiKeys, consoleSessions } from "../../../src/db/schema";
import { sha256Hex } from "../../../src/lib/crypto";
import { env } from "cloudflare:workers";
import { clientOf, limitFailedSignIns, SIGN_IN_WINDOW_MS } from "../../../src/services/sign-in-limits";
import { changePassword } from "../../../src/services/auth";
import { signIn } from "../../../src/services/console-sessions";
import type { Db } from "../../../src/env";
import { PREFIXES, call, db, expectError, seedMember, seedOwner, unique } from "../../harness";
import { ORIGIN, PASSWORD, sessionCookieOf, sessionsOf, withPassword } from "./fixtures";
import { bodyOf } from "../../support/api";

const keysOf = async (userId: string) =>
  (await db().select({ n: count() }).from(apiKeys).where(eq(apiKeys.userId, userId)))[0].n;

describe("POST /auth/sessions/ (console sign-in)", () => {
  it.each(PREFIXES)(
    "signs in with e-mail and password under %s: a hashed session in an HttpOnly, SameSite=Strict cookie, and " +
      "no new API key",
    async (prefix) => {
      const owner = await withPassword(await seedOwner());
      const keysBefore = await keysOf(owner.userId);
      const res = await call(
        "POST",
        `${prefix}/auth/sessions/`,
        { email: owner.email.toUpperCase(), password: PASSWORD },
        { Origin: ORIGIN, "User-Agent": "Test browser" },
      );
      expect(res.status, await res.clone().text()).toBe(201);
      const cookie = sessionCookieOf(res)!;
      expect(cookie.value).toMatch(/^cs_[0-9A-Za-z]{43}$/);
      expect(cookie.attributes).toContain("HttpOnly");
      expect(cookie.attributes).toContain("SameSite=Strict");
      expect(cookie.attributes).toContain("Path=/api");
      expect(cookie.attributes).toContain("Max-Age=43200");
      // localhost over http: browsers would drop a Secure cookie there.
      expect(cookie.attributes).not.toContain("Secure");
      const body = await bodyOf<"POST /auth/sessions/">(res);
      expect(body.session).toMatchObject({
        method: "password",
        userAgent: "Test browser",
        organization: null,
        current: true,
      });
      expect(Number(body.session.expiresAt) - Number(body.session.lastUsedAt)).toBe(12 * 3_600_000);
      expect(body.user.id).toBe(owner.userId);
      expect(body.memberships).toEqual([
        expect.objectContaining({ organization: expect.objectContaining({ id: owner.organizationId }), isOwner: true }),
      ]);
      expect(body.memberships[0].permissions).toContain("chatbot.manage");
      const [row] = await sessionsOf(owner.userId);
      expect(row.tokenHash).toBe(await sha256Hex(cookie.value));
      expect(JSON.stringify(row)).not.toContain(cookie.value);
      expect(await keysOf(owner.userId)).toBe(keysBefore);
    },
  );

  it("signs in with an API key of the user, acting in the key's organization", async () => {
    const owner = await seedOwner();
    const res = await call("POST", "/api/auth/sessions/", { api_key: owner.key });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ session: { method: "api_key", organization: owner.organizationId } });
    expect(sessionCookieOf(res)).not.toBeNull();
  });

  it("sets a Secure cookie outside localhost", async () => {
    const owner = await withPassword(await seedOwner());
    const res = await SELF.fetch("https://console.example.com/api/v1/auth/sessions/", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://console.example.com" },
      body: JSON.stringify({ email: owner.email, password: PASSWORD }),
    });
    expect(res.status).toBe(201);
    expect(sessionCookieOf(res)!.attributes).toContain("Secure");
  });

  it("lists a member's permissions per organization, implied ones included", async () => {
    const owner = await seedOwner();
    const member = await withPassword(await seedMember(owner, ["chatbot.manage"]));
    const res = await call("POST", "/api/v1/auth/sessions/", { email: member.email, password: PASSWORD });
    const { memberships } = await bodyOf<"POST /auth/sessions/">(res);
    const there = memberships.find((m) => m.organization.id === owner.organizationId)!;
    expect(there).toMatchObject({ isOwner: false, permissions: ["chatbot.view", "chatbot.manage"] });
    // Their own organization too (seedMember's user owns one).
    expect(memberships.find((m) => m.organization.id !== owner.organizationId)?.isOwner).toBe(true);
  });

  it.each([
    ["a wrong password", (email: string) => ({ email, password: "wrong password" })],
    ["an unknown e-mail", (email: string) => ({ email: `nobody-${email}`, password: PASSWORD })],
    ["an unknown API key", () => ({ apiKey: "ak_NoSuchKey000000000000000000000000000000" })],
  ])("400 for %s, and no session is created", async (_, body) => {
    const owner = await withPassword(await seedOwner());
    const res = await call("POST", "/api/v1/auth/sessions/", body(owner.email));
    expect(sessionCookieOf(res)).toBeNull();
    await expectError(res, 400, "invalid_credentials");
    expect(await sessionsOf(owner.userId)).toHaveLength(0);
  });

  it("400 for a revoked or expired API key", async () => {
    const owner = await seedOwner();
    const created = await owner.fetch("POST", "/api-keys/", { name: "short", expiresAt: Date.now() + 60_000 });
    const { id, key } = await bodyOf<"POST /api-keys/">(created);
    await db()
      .update(apiKeys)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(apiKeys.id, id));
    await expectError(await call("POST", "/api/v1/auth/sessions/", { apiKey: key }), 400, "invalid_credentials");
    const other = await owner.fetch("POST", "/api-keys/", { name: "revoked" });
    const revoked = await bodyOf<"POST /api-keys/">(other);
    expect((await owner.fetch("DELETE", `/api-keys/${revoked.id}/`)).status).toBe(204);
    await expectError(
      await call("POST", "/api/v1/auth/sessions/", { apiKey: revoked.key }),
      400,
      "invalid_credentials",
    );
    expect(await sessionsOf(owner.userId)).toHaveLength(0);
  });

  it("400 for a key revoked elsewhere while this isolate still remembers it, which forgets it then", async () => {
    const owner = await seedOwner();
    const { id, key } = await bodyOf<"POST /api-keys/">(await owner.fetch("POST", "/api-keys/", { name: "laptop" }));
    const asKey = () => call("GET", "/api/v1/users/current/", undefined, { Authorization: `Api-Key ${key}` });
    // Used here: this isolate remembers the key as live for 2 s (docs/decisions.md, "Per-isolate caches").
    expect((await asKey()).status).toBe(200);
    // Revoked elsewhere: the session a sign-in made now would be missed by the revocation, and last 12 hours.
    await db().update(apiKeys).set({ revokedAt: Date.now() }).where(eq(apiKeys.id, id));
    await expectError(await call("POST", "/api/v1/auth/sessions/", { apiKey: key }), 400, "invalid_credentials");
    expect(await sessionsOf(owner.userId)).toHaveLength(0);
    await expectError(await asKey(), 401, "not_authenticated");
  });

  it("400 for a password changed between the sign-in's check and its session, which is not created", async () => {
    const owner = await withPassword(await seedOwner());
    // The change commits after this sign-in verified the old password and before it writes its session: the change
    // ends the sessions there are, and the one written after it would have lasted 12 hours on the old password.
    const racing = new Proxy(db(), {
      get(target, prop, receiver) {
        if (prop !== "batch") return Reflect.get(target, prop, receiver);
        return async (statements: Parameters<Db["batch"]>[0]) => {
          await changePassword(target, owner.userId, PASSWORD, "staple battery horse", null);
          return target.batch(statements);
        };
      },
    });
    const body = { email: owner.email, password: PASSWORD };
    await expect(signIn(env, racing, body, { userAgent: null, client: null })).rejects.toMatchObject({
      status: 400,
      code: "invalid_credentials",
    });
    expect(await sessionsOf(owner.userId)).toHaveLength(0);
    // Unraced, the same sign-in with the new password works.
    const now = await signIn(
      env,
      db(),
      { ...body, password: "staple battery horse" },
      { userAgent: null, client: null },
    );
    expect(now.state.user.id).toBe(owner.userId);
  });

  it("429 after 10 failed sign-ins for an e-mail in 15 minutes, the right one too; successes are free", async () => {
    const owner = await withPassword(await seedOwner());
    const attempt = (password: string, path = "/auth/sessions/") =>
      call("POST", `/api/v1${path}`, { email: owner.email, password }, { Origin: ORIGIN });
    for (let i = 0; i < 5; i++) await expectError(await attempt(`guess-${i}`), 400, "invalid_credentials");
    expect((await attempt(PASSWORD)).status).toBe(201);
    // Log-ins (which mint a key) count with the console's sign-ins.
    for (let i = 5; i < 10; i++)
      await expectError(await attempt(`guess-${i}`, i % 2 ? "/auth/login/" : "/auth/sessions/"), 400);
    for (const path of ["/auth/sessions/", "/auth/login/"]) {
      const res = await attempt(PASSWORD, path);
      const err = await expectError(res, 429, "throttled");
      expect(err.detail).toContain("Too many failed sign-ins");
      expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
      // At most the window and its tenth: the ten failures' share of the next window is gone by then.
      expect(Number(res.headers.get("Retry-After"))).toBeLessThanOrEqual(15 * 60 * 1.1);
    }
    // Another account is not held back by this one's failures.
    const other = await withPassword(await seedOwner());
    expect((await call("POST", "/api/v1/auth/sessions/", { email: other.email, password: PASSWORD })).status).toBe(201);
  });

  it("429 once 50 sign-ins from one client address failed in 15 minutes, whatever the account", async () => {
    const owner = await withPassword(await seedOwner());
    const from = (client: string, body: Record<string, unknown>) =>
      call("POST", "/api/v1/auth/sessions/", body, { Origin: ORIGIN, "CF-Connecting-IP": client });
    const client = `198.51.100.${Math.floor(Math.random() * 250)}-${unique("client")}`;
    for (let i = 0; i < 5; i++)
      await expectError(await from(client, { email: `${unique("nobody")}@example.com`, password: "x" }), 400);
    // The other 45 counted as the route counts them, without a password hash each (5 s of a test run).
    const nobody = async () => undefined;
    for (let i = 5; i < 50; i++)
      await limitFailedSignIns(env, { email: `${unique("nobody")}@example.com`, client }, nobody);
    await expectError(await from(client, { email: owner.email, password: PASSWORD }), 429, "throttled");
    await expectError(await from(client, { apiKey: owner.key }), 429, "throttled");
    expect((await from(`${client}-other`, { email: owner.email, password: PASSWORD })).status).toBe(201);
  });

  it(
    "a stranger's failures from one address hold back only it; the count over every address holds back the " +
      "account",
    async () => {
      const owner = await withPassword(await seedOwner());
      const from = (client: string, password: string) =>
        call(
          "POST",
          "/api/v1/auth/sessions/",
          { email: owner.email, password },
          { Origin: ORIGIN, "CF-Connecting-IP": client },
        );
      const stranger = `203.0.113.${Math.floor(Math.random() * 250)}-${unique("stranger")}`;
      for (let i = 0; i < 10; i++) await expectError(await from(stranger, `guess-${i}`), 400, "invalid_credentials");
      await expectError(await from(stranger, PASSWORD), 429, "throttled");
      expect((await from(`${stranger}-owner`, PASSWORD)).status).toBe(201);
      // Spread over addresses of one IPv6 /64, the guesses are one client's.
      const block = `2001:db8:${Math.floor(Math.random() * 65535).toString(16)}:7`;
      for (let i = 1; i <= 10; i++) await expectError(await from(`${block}::${i.toString(16)}`, "nope"), 400);
      await expectError(await from(`${block}:ffff::1`, PASSWORD), 429, "throttled");
      // Guessing over many addresses stops at the account's count (`SIGN_IN_FAILURES_PER_ACCOUNT`), whoever comes next.
      const spread = { ...env, SIGN_IN_FAILURES_PER_ACCOUNT: "12" };
      const email = `${unique("spread")}@example.com`;
      for (let i = 0; i < 12; i++)
        await limitFailedSignIns(spread, { email, client: `192.0.2.${i}` }, async () => undefined);
      await expect(
        limitFailedSignIns(spread, { email, client: "198.51.100.7" }, async () => "user"),
      ).rejects.toMatchObject({
        status: 429,
      });
      expect(
        await limitFailedSignIns(
          env,
          { email: `${unique("fresh")}@example.com`, client: "198.51.100.7" },
          async () => "user",
        ),
      ).toBe("user");
    },
  );

  it("an IPv6 client counts by its /64, however the address is written; IPv4 as it is", () => {
    expect(clientOf("2001:DB8:0:12:abcd::1")).toBe("2001:db8:0:12::/64");
    expect(clientOf("2001:db8::12:0:0:1")).toBe("2001:db8:0:0::/64");
    expect(clientOf("2001:0db8:0000:0012:0000:0000:0000:0001")).toBe("2001:db8:0:12::/64");
    expect(clientOf("::1")).toBe("0:0:0:0::/64");
    expect(clientOf("203.0.113.9")).toBe("203.0.113.9");
  });

  it("failed sign-ins count over the last 15 minutes, across a window's edge; refused ones do not count", async () => {
    const who = { email: `${unique("window")}@example.com`, client: null };
    const fail = async () => undefined;
    const start = Math.ceil(Date.now() / SIGN_IN_WINDOW_MS) * SIGN_IN_WINDOW_MS;
    // Five at the end of one window and five at the start of the next are ten in 15 minutes.
    for (let i = 0; i < 5; i++) await limitFailedSignIns(env, who, fail, start - 1_000 + i);
    for (let i = 0; i < 5; i++) await limitFailedSignIns(env, who, fail, start + i);
    await expect(limitFailedSignIns(env, who, async () => "user", start + 1_000)).rejects.toMatchObject({
      status: 429,
    });
    // Held back until the window before's share, shrinking, makes room: 6 + 5 × (1 - 0.2) ≤ 10 at 3 minutes in.
    const refused = limitFailedSignIns(env, who, async () => "user", start + 60_000);
    const retryAfter = Number((await refused.catch((err) => err)).headers["Retry-After"]);
    expect(retryAfter).toBe(120);
    // Refused attempts while held back did not count: the wait is what the ten failures alone make it.
    for (let i = 0; i < 20; i++)
      await limitFailedSignIns(env, who, async () => "user", start + 120_000).catch(() => {});
    expect(await limitFailedSignIns(env, who, async () => "user", start + 60_000 + retryAfter * 1000)).toBe("user");
  });

  it.each([
    [{}, ["email", "password"]],
    [{ email: "not-an-email", password: PASSWORD }, ["email"]],
    [{ email: "a@example.com" }, ["password"]],
    [{ email: "a@example.com", password: PASSWORD, apiKey: "ak_x" }, ["apiKey"]],
  ])("400 naming the fields for %j", async (body, fields) => {
    const err = await expectError(await call("POST", "/api/v1/auth/sessions/", body), 400, "invalid");
    expect(Object.keys(err.errors!).sort()).toEqual([...fields].sort());
  });

  it("403 for a sign-in posted by another site's page, and no session is created", async () => {
    const owner = await withPassword(await seedOwner());
    const res = await call(
      "POST",
      "/api/v1/auth/sessions/",
      { email: owner.email, password: PASSWORD },
      { Origin: "https://evil.example" },
    );
    expect(sessionCookieOf(res)).toBeNull();
    await expectError(res, 403, "permission_denied");
    expect(await db().select().from(consoleSessions).where(eq(consoleSessions.userId, owner.userId))).toHaveLength(0);
  });
});
