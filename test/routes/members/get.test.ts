import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { addGroup, joinGroup, setMetadata } from "./helpers";

const path = (orgId: string, id: string) => `/organizations/${orgId}/members/${id}/`;

describe("GET /organizations/{organizationPk}/members/{id}/", () => {
  it.each(PREFIXES)("returns the member with groups and metadata under %s", async (prefix) => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    const group = await addGroup(owner.organizationId, "Support");
    await joinGroup(member.memberId, group);
    await setMetadata(member.memberId, { department: "Support" });
    const res = await owner.fetch("GET", path(owner.organizationId, member.memberId), undefined, { prefix });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: member.memberId,
      user: { id: member.userId, email: member.email },
      organization: owner.organizationId,
      isOwner: false,
      groups: [{ id: group, name: "Support" }],
      metadata: { department: "Support" },
    });
  });

  it("401 without a key", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    await expectError(
      await call("GET", `/api/v1${path(owner.organizationId, member.memberId)}`),
      401,
      "not_authenticated",
    );
  });

  it("403 without member.view", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, []);
    await expectError(await member.fetch("GET", path(owner.organizationId, member.memberId)), 403, "permission_denied");
  });

  it("404 for another organization's member, an unknown id and a malformed id", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    const stranger = await seedOwner();
    await expectError(await stranger.fetch("GET", path(owner.organizationId, member.memberId)), 404, "not_found");
    // Naming one's own organization does not reach another's member either.
    await expectError(await stranger.fetch("GET", path(stranger.organizationId, member.memberId)), 404, "not_found");
    await expectError(await owner.fetch("GET", path(owner.organizationId, NO_SUCH_ID)), 404, "not_found");
    await expectError(await owner.fetch("GET", path(owner.organizationId, "nope")), 404, "not_found");
  });
});
