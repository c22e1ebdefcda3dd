import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedOwner } from "../../harness";
import { bodyOf } from "../../support/api";
import { signIn } from "../sessions/fixtures";

const useKey = (key: string) => call("GET", "/api/v1/users/current/", undefined, { Authorization: `Api-Key ${key}` });

describe("POST /api-keys/", () => {
  it.each(PREFIXES)("creates a key shown once that works at once under %s", async (prefix) => {
    const owner = await seedOwner();
    const res = await owner.fetch("POST", "/api-keys/", { name: "CI" }, { prefix });
    expect(res.status, await res.clone().text()).toBe(201);
    const body = await bodyOf<"POST /api-keys/">(res);
    expect(body.key.startsWith("ak_")).toBe(true);
    expect(body.key).toHaveLength(43);
    expect(body).toMatchObject({
      name: "CI",
      prefix: body.key.slice(0, 8),
      organization: owner.organizationId,
      expiresAt: null,
      revokedAt: null,
    });
    expect(body).not.toHaveProperty("keyHash");
    const me = await useKey(body.key);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: owner.userId });
  });

  it("accepts an expiry in the near future (ISO or epoch ms, snake_case)", async () => {
    const owner = await seedOwner();
    const soon = Date.now() + 60_000;
    const iso = await owner.fetch("POST", "/api-keys/", { name: "iso", expires_at: new Date(soon).toISOString() });
    expect(iso.status, await iso.clone().text()).toBe(201);
    const isoBody = await bodyOf<"POST /api-keys/">(iso);
    expect(Math.abs(Number(isoBody.expiresAt) - soon)).toBeLessThan(1000);
    expect((await useKey(isoBody.key)).status).toBe(200);

    const epoch = await owner.fetch("POST", "/api-keys/", { name: "epoch", expiresAt: soon });
    expect(epoch.status).toBe(201);
    expect(await epoch.json()).toMatchObject({ expiresAt: String(soon) });
  });

  it("400 on an expiry in the past or past any time, or a missing name, and creates nothing", async () => {
    const owner = await seedOwner();
    const past = await expectError(
      await owner.fetch("POST", "/api-keys/", { name: "old", expiresAt: Date.now() - 1000 }),
      400,
      "invalid",
    );
    expect(past.errors?.expiresAt).toBeDefined();
    const beyond = await expectError(
      await owner.fetch("POST", "/api-keys/", { name: "far", expiresAt: "99999999999999999999999999" }),
      400,
      "invalid",
    );
    expect(beyond.errors?.expiresAt).toBeDefined();
    const noName = await expectError(await owner.fetch("POST", "/api-keys/", {}), 400, "invalid");
    expect(noName.errors?.name).toBeDefined();
    const list = await bodyOf<"GET /api-keys/">(await owner.fetch("GET", "/api-keys/"));
    expect(list.count).toBe(1); // only the seeded key
  });

  it("400 when a key that expires asks for a key that expires later or never, and creates nothing", async () => {
    const owner = await seedOwner();
    const expiresAt = Date.now() + 3_600_000;
    const short = await bodyOf<"POST /api-keys/">(
      await owner.fetch("POST", "/api-keys/", { name: "short", expiresAt }),
    );
    const asShort = (body: unknown) =>
      call("POST", "/api/v1/api-keys/", body, { Authorization: `Api-Key ${short.key}` });
    for (const body of [
      { name: "forever" },
      { name: "null", expiresAt: null },
      { name: "later", expiresAt: expiresAt + 1 },
    ]) {
      const refused = await expectError(await asShort(body), 400, "invalid");
      expect(refused.errors?.expiresAt, body.name).toBeDefined();
      expect(refused.detail).toContain(new Date(expiresAt).toISOString());
    }
    // A console session signed in with that key is held to the same expiry.
    const browser = await signIn({ apiKey: short.key });
    await expectError(await browser.fetch("POST", "/api-keys/", { name: "session" }), 400, "invalid");
    expect((await bodyOf<"GET /api-keys/">(await owner.fetch("GET", "/api-keys/"))).count).toBe(2);

    const same = await asShort({ name: "same", expiresAt });
    expect(same.status, await same.clone().text()).toBe(201);
    const sooner = await browser.fetch("POST", "/api-keys/", { name: "sooner", expiresAt: expiresAt - 60_000 });
    expect(sooner.status, await sooner.clone().text()).toBe(201);
    // A key that never expires may still create one that never does.
    expect((await owner.fetch("POST", "/api-keys/", { name: "forever" })).status).toBe(201);
  });

  it("401 without a key", async () => {
    await expectError(await call("POST", "/api/v1/api-keys/", { name: "CI" }), 401, "not_authenticated");
  });
});
