import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, db, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { groupPermissions } from "../../../src/db/schema";
import { PERMISSIONS } from "../../../src/services/permissions";
import { addGroup, groupLinks, joinGroup, memberIdOf } from "./helpers";
import { bodyOf } from "../../support/api";

const path = (orgId: string, id: string) => `/organizations/${orgId}/members/${id}/update-groups/`;
const linkedGroups = async (memberId: string) => (await groupLinks(memberId)).map((l) => l.groupId).sort();

describe("POST /organizations/{organizationPk}/members/{id}/update-groups/", () => {
  it.each(PREFIXES)("replaces the member's groups under %s", async (prefix) => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    const [a, b, c] = [
      await addGroup(owner.organizationId, "A"),
      await addGroup(owner.organizationId, "B"),
      await addGroup(owner.organizationId, "C"),
    ];
    await joinGroup(member.memberId, a);
    const res = await owner.fetch(
      "POST",
      path(owner.organizationId, member.memberId),
      { groups: [c, b, c] },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await bodyOf<"POST /organizations/{organizationPk}/members/{id}/update-groups/">(res);
    expect(body.id).toBe(member.memberId);
    expect(body.groups).toEqual([
      { id: b, name: "B" },
      { id: c, name: "C" },
    ]);
    expect(await linkedGroups(member.memberId)).toEqual([b, c].sort());
    const cleared = await owner.fetch("POST", path(owner.organizationId, member.memberId), { groups: [] }, { prefix });
    expect((await bodyOf<"POST /organizations/{organizationPk}/members/{id}/update-groups/">(cleared)).groups).toEqual(
      [],
    );
    expect(await linkedGroups(member.memberId)).toEqual([]);
  });

  it("400 naming groups for another organization's group or a malformed id, and the groups are unchanged", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    const mine = await addGroup(owner.organizationId);
    await joinGroup(member.memberId, mine);
    const stranger = await seedOwner();
    const foreign = await addGroup(stranger.organizationId);
    for (const groups of [[mine, foreign], ["nope"], "x", undefined]) {
      const body = await expectError(
        await owner.fetch("POST", path(owner.organizationId, member.memberId), { groups }),
        400,
        "invalid",
      );
      expect(Object.keys(body.errors!).some((k) => k.startsWith("groups"))).toBe(true);
    }
    expect(await linkedGroups(member.memberId)).toEqual([mine]);
  });

  it("401 without a key", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    await expectError(
      await call("POST", `/api/v1${path(owner.organizationId, member.memberId)}`, { groups: [] }),
      401,
      "not_authenticated",
    );
  });

  it("403 without member.manage, and for a manager changing their own groups", async () => {
    const owner = await seedOwner();
    const target = await seedMember(owner);
    const group = await addGroup(owner.organizationId);
    const viewer = await seedMember(owner, ["member.view", "group.manage"]);
    await expectDenied(await viewer.fetch("POST", path(owner.organizationId, target.memberId), { groups: [group] }));
    const manager = await seedMember(owner, ["member.manage"]);
    await expectDenied(await manager.fetch("POST", path(owner.organizationId, manager.memberId), { groups: [group] }));
    expect(await linkedGroups(target.memberId)).toEqual([]);
    expect(await linkedGroups(manager.memberId)).toEqual([manager.groupId]);
    expect((await manager.fetch("POST", path(owner.organizationId, target.memberId), { groups: [group] })).status).toBe(
      200,
    );
    // The owner may set their own.
    const ownerMemberId = await memberIdOf(owner.organizationId, owner.userId);
    expect((await owner.fetch("POST", path(owner.organizationId, ownerMemberId), { groups: [group] })).status).toBe(
      200,
    );
  });

  it("403 for a manager giving a group with permissions the manager lacks", async () => {
    const owner = await seedOwner();
    const target = await seedMember(owner);
    const manager = await seedMember(owner, ["member.manage"]);
    const admins = await addGroup(owner.organizationId);
    await db()
      .insert(groupPermissions)
      .values({ groupId: admins, permissionId: PERMISSIONS.find((p) => p.codename === "organization.manage")!.id });
    const res = await manager.fetch("POST", path(owner.organizationId, target.memberId), { groups: [admins] });
    expect((await expectDenied(res)).detail).toContain("organization.manage");
    expect(await linkedGroups(target.memberId)).toEqual([]);
  });

  it("404 for another organization's member", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    const stranger = await seedOwner();
    const strangerGroup = await addGroup(stranger.organizationId);
    await expectNotFound(await stranger.fetch("POST", path(owner.organizationId, member.memberId), { groups: [] }));
    await expectNotFound(
      await stranger.fetch("POST", path(stranger.organizationId, member.memberId), { groups: [strangerGroup] }),
    );
    await expectNotFound(await owner.fetch("POST", path(owner.organizationId, NO_SUCH_ID), { groups: [] }));
    expect(await linkedGroups(member.memberId)).toEqual([]);
  });
});
