import { describe, expect, it } from "vitest";
import { PREFIXES, seedMember, seedOwner } from "../../../harness";
import { expectNotFound, expectInvalid } from "../../../support/refusals";
import { byId, createGroup, expectLinksGuarded, linksPage } from "../helpers";
import { addMembers, groupMembersPath } from "./helpers";

const page = (res: Response) => linksPage<"group-members">(res);

describe("GET .../groups/{groupPk}/group-members/", () => {
  it.each(PREFIXES)("lists the group's members, oldest first, in page form under %s", async (prefix) => {
    const owner = await seedOwner();
    const group = await createGroup(owner, []);
    const other = await createGroup(owner, []);
    const a = await seedMember(owner);
    const b = await seedMember(owner);
    const added = await addMembers(owner, group.id, [a.memberId, b.memberId]);
    await addMembers(owner, other.id, [a.memberId]);
    const body = await page(
      await owner.fetch("GET", groupMembersPath(owner.organizationId, group.id), undefined, { prefix }),
    );
    expect(body).toMatchObject({ count: 2, next: null, previous: null });
    expect(body.results).toEqual([...added].sort(byId));
    const later = await seedMember(owner);
    const [third] = await addMembers(owner, group.id, [later.memberId]);

    const first = await page(
      await owner.fetch("GET", `${groupMembersPath(owner.organizationId, group.id)}?page_size=2`),
    );
    expect(first.results).toEqual([...added].sort(byId));
    expect(first.next).toContain("page=2");
    const second = await page(
      await owner.fetch("GET", `${groupMembersPath(owner.organizationId, group.id)}?page=2&page_size=2`),
    );
    expect(second.results).toEqual([third]);
    await expectNotFound(
      await owner.fetch("GET", `${groupMembersPath(owner.organizationId, group.id)}?page=3&pageSize=2`),
    );
  });

  it("400 for a page that is not a positive integer", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, []);
    for (const page of ["0", "abc", "-2"]) {
      await expectInvalid(
        await owner.fetch("GET", `${groupMembersPath(owner.organizationId, group.id)}?page=${page}`),
        "page",
      );
    }
  });

  it("filters by `query` on the member's name or e-mail, case-insensitive", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, []);
    const a = await seedMember(owner);
    const b = await seedMember(owner);
    await addMembers(owner, group.id, [a.memberId, b.memberId]);
    const ids = async (q: string) =>
      (
        await page(
          await owner.fetch(
            "GET",
            `${groupMembersPath(owner.organizationId, group.id)}?query=${encodeURIComponent(q)}`,
          ),
        )
      ).results.map((m) => m.member.id);
    expect(await ids(a.email.toUpperCase())).toEqual([a.memberId]);
    expect((await ids("MEMBER")).sort()).toEqual([a.memberId, b.memberId].sort()); // both are named "member"
    expect(await ids("nobody-by-that-name")).toEqual([]);
  });

  it("group.view suffices; without it 403; another organization's group 404; 401 without a key", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["group.view"]);
    const path = groupMembersPath(owner.organizationId, viewer.groupId!);
    expect((await page(await viewer.fetch("GET", path))).results.map((m) => m.member.id)).toEqual([viewer.memberId]);
    const denied = await seedMember(owner);
    await expectLinksGuarded({ owner, denied }, "group-members", { method: "GET", groupId: viewer.groupId! });
  });
});
