import { describe, expect, it } from "vitest";
import { seedMember, seedOwner, unique } from "../../harness";
import { groupsPath, permissionId } from "./helpers";
import { problemOf, bodyOf } from "../../support/api";

describe("group permissions are enforced", () => {
  it("a member whose group holds only group.view can list, not create, until the owner adds group.manage", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["group.view"]);
    const groups = groupsPath(owner.organizationId);

    expect((await member.fetch("GET", groups)).status).toBe(200);
    const denied = await member.fetch("POST", groups, { name: unique("by-member"), permissions: [] });
    expect(denied.status).toBe(403);

    const patch = await owner.fetch("PATCH", groupsPath(owner.organizationId, `${member.groupId}/`), {
      permissions: [permissionId("group.view"), permissionId("group.manage")],
    });
    expect(patch.status, await patch.clone().text()).toBe(200);

    const allowed = await member.fetch("POST", groups, { name: unique("by-member"), permissions: [] });
    expect(allowed.status, await allowed.clone().text()).toBe(201);

    // And taking it away again takes effect at once.
    await owner.fetch("PATCH", groupsPath(owner.organizationId, `${member.groupId}/`), {
      permissions: [permissionId("group.view")],
    });
    expect((await member.fetch("POST", groups, { name: unique("by-member"), permissions: [] })).status).toBe(403);
  });

  it("a member with group.manage cannot grant permissions they do not hold, nor join a stronger group", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["group.manage"]);
    const groups = groupsPath(owner.organizationId);
    const escalate = await member.fetch("POST", groups, {
      name: unique("admins"),
      permissions: [permissionId("member.manage")],
    });
    expect(escalate.status).toBe(403);
    expect((await problemOf(escalate)).detail).toContain("member.manage");
    expect(
      (
        await member.fetch("PATCH", groupsPath(owner.organizationId, `${member.groupId}/`), {
          permissions: [permissionId("organization.manage")],
        })
      ).status,
    ).toBe(403);

    // Granting what they hold is fine.
    expect(
      (await member.fetch("POST", groups, { name: unique("helpers"), permissions: [permissionId("group.view")] }))
        .status,
    ).toBe(201);

    // The owner's stronger group cannot be joined by the member.
    const admins = await owner.fetch("POST", groups, {
      name: unique("admins"),
      permissions: [permissionId("member.manage")],
    });
    const { id } = await bodyOf<"POST /organizations/{organizationPk}/groups/">(admins);
    const join = await member.fetch("POST", groupsPath(owner.organizationId, `${id}/group-members/bulk-create/`), {
      members: [member.memberId],
    });
    expect(join.status).toBe(403);
    const list = await owner.fetch("GET", groupsPath(owner.organizationId, `${id}/group-members/`));
    expect((await bodyOf<"GET /organizations/{organizationPk}/groups/{groupPk}/group-members/">(list)).count).toBe(0);
  });
});
