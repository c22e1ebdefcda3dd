import { describe, expect, it } from "vitest";
import { seedMember, seedOwner, unique } from "../../harness";
import { groupsPath, permissionId } from "./helpers";

describe("group permissions are enforced", () => {
  it("a member whose group holds only group.view can list but not create, until the owner adds group.manage", async () => {
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
    await owner.fetch("PATCH", groupsPath(owner.organizationId, `${member.groupId}/`), { permissions: [permissionId("group.view")] });
    expect((await member.fetch("POST", groups, { name: unique("by-member"), permissions: [] })).status).toBe(403);
  });
});
