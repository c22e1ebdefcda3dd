import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, seedMember, seedOwner } from "../../../harness";
import { expectDenied } from "../../../support/refusals";
import { createGroup, expectBulkCreateRefusals, expectLinksGuarded } from "../helpers";
import { addMembers, groupMembersPath, insertMembers, rowsOf } from "./helpers";
import { bodyOf } from "../../../support/api";

describe("POST .../groups/{groupPk}/group-members/bulk-create/", () => {
  it.each(PREFIXES)("adds organization members and returns the created records under %s", async (prefix) => {
    const owner = await seedOwner();
    const group = await createGroup(owner, ["chatbot.view"]);
    const a = await seedMember(owner);
    const b = await seedMember(owner);
    const res = await owner.fetch(
      "POST",
      groupMembersPath(owner.organizationId, group.id, "bulk-create/"),
      { members: [a.memberId, b.memberId] },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const created =
      await bodyOf<"POST /organizations/{organizationPk}/groups/{groupPk}/group-members/bulk-create/">(res);
    expect(created).toHaveLength(2);
    expect(created[0]).toMatchObject({
      group: group.id,
      member: { id: a.memberId, user: { id: a.userId, name: "member", email: a.email } },
    });
    expect(created[0].createdAt).toMatch(/^\d+$/);
    expect(created[1].member.id).toBe(b.memberId);
    const after = await owner.fetch("GET", `/organizations/${owner.organizationId}/groups/${group.id}/`);
    expect(await after.json()).toMatchObject({ membersCount: 2 });
  });

  it("skips members already in the group and duplicates in the request", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, []);
    const a = await seedMember(owner);
    const b = await seedMember(owner);
    const [first] = await addMembers(owner, group.id, [a.memberId]);
    const second = await addMembers(owner, group.id, [a.memberId, b.memberId, b.memberId]);
    expect(second.map((m) => m.member.id)).toEqual([b.memberId]);
    expect(await addMembers(owner, group.id, [a.memberId, b.memberId])).toEqual([]);
    const rows = await rowsOf(group.id);
    expect(rows.map((r) => r.memberId).sort()).toEqual([a.memberId, b.memberId].sort());
    expect(rows.find((r) => r.memberId === a.memberId)?.id).toBe(first.id);
  });

  it("the member gains the group's permissions at once", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, ["group.view"]);
    const member = await seedMember(owner);
    await expectDenied(await member.fetch("GET", `/organizations/${owner.organizationId}/groups/`));
    await addMembers(owner, group.id, [member.memberId]);
    expect((await member.fetch("GET", `/organizations/${owner.organizationId}/groups/`)).status).toBe(200);
  });

  it("handles more members than one statement can bind", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, []);
    const ids = await insertMembers(owner.organizationId, 130);
    const created = await addMembers(owner, group.id, ids);
    expect(created.map((m) => m.member.id)).toEqual(ids);
    expect(await rowsOf(group.id)).toHaveLength(130);
  });

  it("400 naming `members` when any id is not a member of this organization, and adds nobody", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const group = await createGroup(owner, []);
    const mine = await seedMember(owner);
    const theirs = await seedMember(other);
    await expectBulkCreateRefusals(
      owner,
      groupMembersPath(owner.organizationId, group.id, "bulk-create/"),
      "members",
      mine.memberId,
      [theirs.memberId, NO_SUCH_ID, "not-a-uuid"],
    );
    expect(await rowsOf(group.id)).toHaveLength(0);
  });

  it("403 for a manager who is not an owner adding themselves, even to a group of permissions they hold", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["group.manage", "chatbot.view"]);
    const other = await seedMember(owner);
    const group = await createGroup(owner, ["chatbot.view"]);
    const path = groupMembersPath(owner.organizationId, group.id, "bulk-create/");
    for (const members of [[manager.memberId], [other.memberId, manager.memberId.toUpperCase()]])
      await expectDenied(await manager.fetch("POST", path, { members }));
    expect(await rowsOf(group.id)).toHaveLength(0);
    // Adding someone else is still theirs to do, and the owner may add themselves.
    expect((await manager.fetch("POST", path, { members: [other.memberId] })).status).toBe(201);
    const self = await owner.fetch("GET", `/organizations/${owner.organizationId}/members/current/`);
    const { id } = await bodyOf<"GET /organizations/{organizationPk}/members/current/">(self);
    expect((await owner.fetch("POST", path, { members: [id] })).status).toBe(201);
    expect((await rowsOf(group.id)).map((r) => r.memberId).sort()).toEqual([other.memberId, id].sort());
  });

  it("403 with only group.view, 404 for another organization's group, 401 without a key", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, []);
    const denied = await seedMember(owner, ["group.view"]);
    const request = {
      method: "POST",
      groupId: group.id,
      rest: "bulk-create/",
      body: { members: [denied.memberId] },
    } as const;
    const theirs = await expectLinksGuarded({ owner, denied }, "group-members", request);
    expect(await rowsOf(group.id)).toHaveLength(0);
    expect(await rowsOf(theirs.id)).toHaveLength(0);
  });
});
