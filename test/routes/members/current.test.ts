import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { bodyOf } from "../../support/api";

const path = (orgId: string) => `/organizations/${orgId}/members/current/`;

describe("GET /organizations/{organizationPk}/members/current/", () => {
  it.each(PREFIXES)("returns the caller's own member record under %s, without any permission", async (prefix) => {
    const owner = await seedOwner();
    const member = await seedMember(owner, []);
    const res = await member.fetch("GET", path(owner.organizationId), undefined, { prefix });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: member.memberId, user: { id: member.userId }, isOwner: false });
    const mine = await bodyOf<"GET /organizations/{organizationPk}/members/current/">(
      await owner.fetch("GET", path(owner.organizationId), undefined, { prefix }),
    );
    expect(mine).toMatchObject({ user: { id: owner.userId }, isOwner: true });
  });

  it("401 without a key", async () => {
    const owner = await seedOwner();
    await expectError(await call("GET", `/api/v1${path(owner.organizationId)}`), 401, "not_authenticated");
  });

  it("404 in an organization the caller is not a member of", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    await expectError(await stranger.fetch("GET", path(owner.organizationId)), 404, "not_found");
  });
});
