import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { groupMembers, groupPermissions } from "../../../src/db/schema";
import { PREFIXES, call, db, expectError, seedMember, seedOwner } from "../../harness";
import { createGroup, groupsPath } from "./helpers";

describe("DELETE /organizations/{organizationPk}/groups/{id}/", () => {
  it.each(PREFIXES)(
    "deletes the group, its permissions and memberships under %s; its members lose the permissions",
    async (prefix) => {
      const owner = await seedOwner();
      const member = await seedMember(owner, ["group.view"]);
      const path = groupsPath(owner.organizationId, `${member.groupId}/`);
      expect((await member.fetch("GET", groupsPath(owner.organizationId))).status).toBe(200);
      const res = await owner.fetch("DELETE", path, undefined, { prefix });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");
      await expectError(await owner.fetch("GET", path), 404, "not_found");
      expect(
        await db().select().from(groupPermissions).where(eq(groupPermissions.groupId, member.groupId!)),
      ).toHaveLength(0);
      expect(await db().select().from(groupMembers).where(eq(groupMembers.groupId, member.groupId!))).toHaveLength(0);
      await expectError(await member.fetch("GET", groupsPath(owner.organizationId)), 403, "permission_denied");
      await expectError(await owner.fetch("DELETE", path), 404, "not_found");
    },
  );

  it("403 with only group.view, 404 for another organization's group, 401 without a key; nothing deleted", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, []);
    const path = groupsPath(owner.organizationId, `${group.id}/`);
    const viewer = await seedMember(owner, ["group.view"]);
    await expectError(await viewer.fetch("DELETE", path), 403, "permission_denied");
    const other = await seedOwner();
    await expectError(await other.fetch("DELETE", path), 404, "not_found");
    await expectError(await other.fetch("DELETE", groupsPath(other.organizationId, `${group.id}/`)), 404, "not_found");
    await expectError(await call("DELETE", `/api/v1${path}`), 401, "not_authenticated");
    expect((await owner.fetch("GET", path)).status).toBe(200);
  });
});
