import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { members } from "../../../src/db/schema";
import { NO_SUCH_ID, PREFIXES, call, db, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound, expectInvalid } from "../../support/refusals";
import { bodyOf } from "../../support/api";

const path = (orgId: string) => `/organizations/${orgId}/members/`;
const membershipsOf = (organizationId: string, userId: string) =>
  db()
    .select()
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));

describe("POST /organizations/{organizationPk}/members/", () => {
  it.each(PREFIXES)(
    "adds a registered user by e-mail under %s (case-insensitively) and returns the member record",
    async (prefix) => {
      const owner = await seedOwner();
      const other = await seedOwner("newcomer");
      const res = await owner.fetch(
        "POST",
        path(owner.organizationId),
        { email: other.email.toUpperCase(), organization: owner.organizationId },
        { prefix },
      );
      expect(res.status, await res.clone().text()).toBe(201);
      const body = await bodyOf<"POST /organizations/{organizationPk}/members/">(res);
      expect(body).toMatchObject({
        user: { id: other.userId, email: other.email, name: "newcomer", avatar: null },
        organization: owner.organizationId,
        isOwner: false,
        groups: [],
        metadata: {},
      });
      expect(typeof body.createdAt).toBe("string");
      const [row] = await membershipsOf(owner.organizationId, other.userId);
      expect(row.id).toBe(body.id);
    },
  );

  it("409 when the user is already a member", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    await expectError(await owner.fetch("POST", path(owner.organizationId), { email: member.email }), 409, "conflict");
    await expectError(await owner.fetch("POST", path(owner.organizationId), { email: owner.email }), 409, "conflict");
  });

  it("400 naming email for a malformed or unknown address, and nothing is written", async () => {
    const owner = await seedOwner();
    let body = await expectError(
      await owner.fetch("POST", path(owner.organizationId), { email: "nope" }),
      400,
      "invalid",
    );
    expect(Object.keys(body.errors!)).toContain("email");
    body = await expectError(await owner.fetch("POST", path(owner.organizationId), {}), 400, "invalid");
    expect(Object.keys(body.errors!)).toContain("email");
    body = await expectError(
      await owner.fetch("POST", path(owner.organizationId), { email: "nobody-here@example.com" }),
      400,
      "invalid",
    );
    expect(body.errors).toEqual({ email: [expect.any(String)] });
    const rows = await db().select().from(members).where(eq(members.organizationId, owner.organizationId));
    expect(rows).toHaveLength(1);
  });

  it("400 naming organization when it differs from the path, and nothing is written", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    await expectInvalid(
      await owner.fetch("POST", path(owner.organizationId), { email: other.email, organization: other.organizationId }),
      "organization",
    );
    expect(await membershipsOf(owner.organizationId, other.userId)).toHaveLength(0);
  });

  it("415 for a form body", async () => {
    const owner = await seedOwner();
    const form = new FormData();
    form.set("email", owner.email);
    await expectError(await owner.fetch("POST", path(owner.organizationId), form), 415, "unsupported_media_type");
  });

  it("401 without a key", async () => {
    const owner = await seedOwner();
    await expectError(
      await call("POST", `/api/v1${path(owner.organizationId)}`, { email: owner.email }),
      401,
      "not_authenticated",
    );
  });

  it("403 for a member without member.manage (member.view is not enough), and nothing is written", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["member.view"]);
    const other = await seedOwner();
    await expectDenied(await viewer.fetch("POST", path(owner.organizationId), { email: other.email }));
    expect(await membershipsOf(owner.organizationId, other.userId)).toHaveLength(0);
  });

  it("a member with member.manage can add members", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["member.manage"]);
    const other = await seedOwner();
    expect((await manager.fetch("POST", path(owner.organizationId), { email: other.email })).status).toBe(201);
  });

  it("404 for another organization, an unknown one and a malformed id", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("POST", path(owner.organizationId), { email: stranger.email }));
    expect(await membershipsOf(owner.organizationId, stranger.userId)).toHaveLength(0);
    await expectNotFound(await owner.fetch("POST", path(NO_SUCH_ID), { email: stranger.email }));
    await expectNotFound(await owner.fetch("POST", path("not-a-uuid"), { email: stranger.email }));
  });
});
