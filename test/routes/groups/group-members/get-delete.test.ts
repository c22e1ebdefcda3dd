import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../../harness";
import { expectDenied, expectNotFound } from "../../../support/refusals";
import { createGroup, expectLinkIdsNotFound } from "../helpers";
import { addMembers, groupMembersPath } from "./helpers";
import { bodyOf } from "../../../support/api";

describe("GET .../groups/{groupPk}/group-members/{id}/", () => {
  it.each(PREFIXES)("returns the group member under %s", async (prefix) => {
    const owner = await seedOwner();
    const group = await createGroup(owner, []);
    const a = await seedMember(owner);
    const [added] = await addMembers(owner, group.id, [a.memberId]);
    const res = await owner.fetch("GET", groupMembersPath(owner.organizationId, group.id, `${added.id}/`), undefined, {
      prefix,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(added);
  });

  it(
    "404 through another group, for another organization's, unknown or malformed ids; 403 without group.view; " + "401",
    async () => {
      const owner = await seedOwner();
      const group = await createGroup(owner, []);
      const sibling = await createGroup(owner, []);
      const a = await seedMember(owner);
      const [added] = await addMembers(owner, group.id, [a.memberId]);
      await expectLinkIdsNotFound(owner, "group-members", "GET", {
        groupId: group.id,
        siblingId: sibling.id,
        linkId: added.id,
      });
      const other = await seedOwner();
      await expectNotFound(await other.fetch("GET", groupMembersPath(owner.organizationId, group.id, `${added.id}/`)));
      await expectNotFound(await other.fetch("GET", groupMembersPath(other.organizationId, group.id, `${added.id}/`)));
      await expectDenied(await a.fetch("GET", groupMembersPath(owner.organizationId, group.id, `${added.id}/`)));
      await expectError(
        await call("GET", `/api/v1${groupMembersPath(owner.organizationId, group.id, `${added.id}/`)}`),
        401,
        "not_authenticated",
      );
    },
  );
});

describe("DELETE .../groups/{groupPk}/group-members/{id}/", () => {
  it.each(PREFIXES)(
    "removes the member from the group (not from the organization) under %s; they lose its permissions",
    async (prefix) => {
      const owner = await seedOwner();
      const member = await seedMember(owner, ["group.view"]);
      const list = await member.fetch("GET", groupMembersPath(owner.organizationId, member.groupId!));
      const [membership] = (await bodyOf<"GET /organizations/{organizationPk}/groups/{groupPk}/group-members/">(list))
        .results;
      const path = groupMembersPath(owner.organizationId, member.groupId!, `${membership.id}/`);
      const res = await owner.fetch("DELETE", path, undefined, { prefix });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");
      await expectNotFound(await owner.fetch("GET", path));
      await expectDenied(await member.fetch("GET", `/organizations/${owner.organizationId}/groups/`));
      const group = await owner.fetch("GET", `/organizations/${owner.organizationId}/groups/${member.groupId}/`);
      expect(await group.json()).toMatchObject({ membersCount: 0 });
      // Still a member of the organization: they can be added back.
      expect(await addMembers(owner, member.groupId!, [member.memberId])).toHaveLength(1);
      await expectNotFound(
        await owner.fetch("DELETE", groupMembersPath(owner.organizationId, member.groupId!, `${membership.id}/`)),
      );
    },
  );

  it("403 with only group.view, 404 through another group or organization, 401; nothing is removed", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["group.view"]);
    const sibling = await createGroup(owner, []);
    const [membership] = await addMembers(owner, sibling.id, [viewer.memberId]);
    const path = groupMembersPath(owner.organizationId, sibling.id, `${membership.id}/`);
    await expectDenied(await viewer.fetch("DELETE", path));
    await expectNotFound(
      await owner.fetch("DELETE", groupMembersPath(owner.organizationId, viewer.groupId!, `${membership.id}/`)),
    );
    const other = await seedOwner();
    await expectNotFound(await other.fetch("DELETE", path));
    await expectError(await call("DELETE", `/api/v1${path}`), 401, "not_authenticated");
    expect((await owner.fetch("GET", path)).status).toBe(200);
  });
});
