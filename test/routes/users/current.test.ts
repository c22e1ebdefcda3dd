import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedOwner } from "../../harness";
import { expectInvalid } from "../../support/refusals";
import { bodyOf } from "../../support/api";

describe("users/current", () => {
  it.each(PREFIXES)("GET returns the key's user under %s, with or without the trailing slash", async (prefix) => {
    const owner = await seedOwner();
    for (const path of ["/users/current/", "/users/current"]) {
      const res = await owner.fetch("GET", path, undefined, { prefix });
      expect(res.status).toBe(200);
      expect(res.headers.get("X-Request-Id")).toBeTruthy();
      const body = await res.json<Record<string, unknown>>();
      expect(body).toMatchObject({ id: owner.userId, email: owner.email, isStaff: false });
      expect(body).not.toHaveProperty("passwordHash");
    }
  });

  it("401 without a key, with a malformed header and with an unknown key", async () => {
    await expectError(await call("GET", "/api/v1/users/current/"), 401, "not_authenticated");
    await expectError(
      await call("GET", "/api/v1/users/current/", undefined, { Authorization: "Token abc" }),
      401,
      "not_authenticated",
    );
    await expectError(
      await call("GET", "/api/v1/users/current/", undefined, { Authorization: "Api-Key ak_nope" }),
      401,
      "not_authenticated",
    );
  });

  it("PUT updates the profile and accepts snake_case keys", async () => {
    const owner = await seedOwner();
    const email = `renamed-${owner.email}`;
    const res = await owner.fetch(
      "PUT",
      "/users/current/",
      { name: "Renamed", email, invitation_code: "INV1" },
      { prefix: "/api" },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: "Renamed", email, invitationCode: "INV1" });
  });

  it("PUT with bad input is a 400 naming the field, and writes nothing", async () => {
    const owner = await seedOwner();
    const body = await expectError(
      await owner.fetch("PUT", "/users/current/", { name: "", email: "not-an-email" }),
      400,
      "invalid",
    );
    expect(Object.keys(body.errors!)).toEqual(expect.arrayContaining(["name", "email"]));
    const after = await bodyOf<"GET /users/current/">(await owner.fetch("GET", "/users/current/"));
    expect(after.email).toBe(owner.email);
  });

  it("PUT takes an http(s) avatar only: shown beside the user's replies in the console and the widget", async () => {
    const owner = await seedOwner();
    const profile = { name: "Sam", email: owner.email };
    for (const avatar of ["javascript:alert(1)", "data:image/svg+xml,<svg onload=alert(1)>", "ftp://x.example.com/a"]) {
      await expectInvalid(await owner.fetch("PUT", "/users/current/", { ...profile, avatar }), "avatar");
    }
    const res = await owner.fetch("PUT", "/users/current/", { ...profile, avatar: "https://cdn.example.com/sam.png" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ avatar: "https://cdn.example.com/sam.png" });
  });

  it("PUT with malformed JSON is a 400 parse error", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch("PUT", "/users/current/", "{nope", {
      headers: { "Content-Type": "application/json" },
    });
    await expectError(res, 400, "parse_error");
  });

  it("PUT to an e-mail another user has is a 409", async () => {
    const a = await seedOwner();
    const b = await seedOwner();
    await expectError(await a.fetch("PUT", "/users/current/", { name: "A", email: b.email }), 409, "conflict");
  });
});
