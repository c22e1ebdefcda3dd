import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedOwner } from "../../harness";
import { expectInvalid } from "../../support/refusals";
import { bodyOf, listOf, pageOf } from "../../support/api";

describe("GET /organizations/", () => {
  it.each(PREFIXES)("pages the organizations the caller belongs to under %s", async (prefix) => {
    const user = await seedOwner();
    const other = await seedOwner();
    const created = await bodyOf<"POST /organizations/">(
      await user.fetch("POST", "/organizations/", { name: "Second" }),
    );
    const joined = await seedOwner();
    expect(
      (await joined.fetch("POST", `/organizations/${joined.organizationId}/members/`, { email: user.email })).status,
    ).toBe(201);
    const res = await user.fetch("GET", "/organizations/?page_size=2", undefined, { prefix });
    expect(res.status).toBe(200);
    const page = await pageOf<"GET /organizations/">(res);
    expect(page.count).toBe(3);
    expect(page.results.map((o) => o.id)).toEqual([user.organizationId, created.id]);
    expect(page.next).toContain("page=2");
    const second = await pageOf<"GET /organizations/">(await user.fetch("GET", "/organizations/?pageSize=2&page=2"));
    expect(second.results.map((o) => o.id)).toEqual([joined.organizationId]);
    expect(second.next).toBeNull();
    const all = [...page.results, ...second.results].map((o) => o.id);
    expect(all).not.toContain(other.organizationId);
  });

  it("pagination=false returns a plain array of every organization, oldest first", async () => {
    const user = await seedOwner();
    const created = await bodyOf<"POST /organizations/">(
      await user.fetch("POST", "/organizations/", { name: "Second" }),
    );
    const res = await user.fetch("GET", "/organizations/?pagination=false", undefined, { prefix: "/api" });
    const body = await listOf<"GET /organizations/">(res);
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((o) => o.id)).toEqual([user.organizationId, created.id]);
    expect(body[1].name).toBe("Second");
  });

  it("400 naming the field for a bad page or switch", async () => {
    const owner = await seedOwner();
    for (const [query, field] of [
      ["?page=0", "page"],
      ["?pagination=no", "pagination"],
    ]) {
      await expectInvalid(await owner.fetch("GET", `/organizations/${query}`), field);
    }
    await expectError(await owner.fetch("GET", "/organizations/?page=9"), 404, "not_found");
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", "/api/organizations/"), 401, "not_authenticated");
  });
});
