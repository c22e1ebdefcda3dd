import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedOwner } from "../../harness";
import { expectInvalid } from "../../support/refusals";
import { bodyOf } from "../../support/api";

describe("GET /api-keys/", () => {
  it.each(PREFIXES)("lists only the caller's keys, newest first, without secrets, under %s", async (prefix) => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const created = await bodyOf<"POST /api-keys/">(await owner.fetch("POST", "/api-keys/", { name: "second" }));
    const res = await owner.fetch("GET", "/api-keys/", undefined, { prefix });
    expect(res.status).toBe(200);
    const text = await res.clone().text();
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(owner.key);
    const body = await bodyOf<"GET /api-keys/">(res);
    expect(body).toMatchObject({ count: 2, next: null, previous: null });
    expect(body.results[0]).toMatchObject({ id: created.id, name: "second" });
    for (const key of body.results) {
      expect(Object.keys(key).sort()).toEqual([
        "createdAt",
        "expiresAt",
        "id",
        "lastUsedAt",
        "name",
        "organization",
        "prefix",
        "revokedAt",
      ]);
    }
    const others = await bodyOf<"GET /api-keys/">(await other.fetch("GET", "/api-keys/"));
    expect(others.results.map((k) => k.id)).not.toContain(created.id);
  });

  it("400 for a page that is not a positive integer", async () => {
    const owner = await seedOwner();
    for (const page of ["0", "abc"]) {
      await expectInvalid(await owner.fetch("GET", `/api-keys/?page=${page}`), "page");
    }
  });

  it("pages with page and page_size", async () => {
    const owner = await seedOwner();
    await owner.fetch("POST", "/api-keys/", { name: "a" });
    await owner.fetch("POST", "/api-keys/", { name: "b" });
    const body = await bodyOf<"GET /api-keys/">(await owner.fetch("GET", "/api-keys/?page_size=2"));
    expect(body.count).toBe(3);
    expect(body.results).toHaveLength(2);
    expect(body.next).toContain("page=2");
    await expectError(await owner.fetch("GET", "/api-keys/?page=3&pageSize=2"), 404, "not_found");
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", "/api/v1/api-keys/"), 401, "not_authenticated");
  });
});
