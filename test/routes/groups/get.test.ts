import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound, expectUnknownIds } from "../../support/refusals";
import { createGroup, groupsPath } from "./helpers";

describe("GET /organizations/{organizationPk}/groups/{id}/", () => {
  it.each(PREFIXES)("returns the group under %s, without the trailing slash too", async (prefix) => {
    const owner = await seedOwner();
    const group = await createGroup(owner, ["chatbot.manage"]);
    for (const path of [groupsPath(owner.organizationId, `${group.id}/`), groupsPath(owner.organizationId, group.id)]) {
      const res = await owner.fetch("GET", path, undefined, { prefix });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(group);
    }
  });

  it("counts the group's members", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["group.view"]);
    const res = await member.fetch("GET", groupsPath(owner.organizationId, `${member.groupId}/`));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: member.groupId, membersCount: 1 });
  });

  it(
    "404 for another organization's group, even through the caller's own organization; unknown and malformed " + "ids",
    async () => {
      const owner = await seedOwner();
      const other = await seedOwner();
      const theirs = await createGroup(other, []);
      await expectUnknownIds(owner, groupsPath(owner.organizationId, ""), theirs.id);
      await expectNotFound(await owner.fetch("GET", groupsPath(other.organizationId, `${theirs.id}/`)));
    },
  );

  it("403 without group.view; 401 without a key", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, []);
    const plain = await seedMember(owner);
    await expectDenied(await plain.fetch("GET", groupsPath(owner.organizationId, `${group.id}/`)));
    await expectError(
      await call("GET", `/api/v1${groupsPath(owner.organizationId, `${group.id}/`)}`),
      401,
      "not_authenticated",
    );
  });
});
