import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { addGroup, joinGroup, memberIdOf, seedInbox, setMetadata } from "./helpers";
import { listOf, pageOf } from "../../support/api";

const path = (orgId: string, query = "") => `/organizations/${orgId}/members/${query}`;

async function list(actor: { fetch: (m: string, p: string) => Promise<Response> }, orgId: string, query = "") {
  const res = await actor.fetch("GET", path(orgId, query));
  expect(res.status, await res.clone().text()).toBe(200);
  return await pageOf<"GET /organizations/{organizationPk}/members/">(res);
}

describe("GET /organizations/{organizationPk}/members/", () => {
  it.each(PREFIXES)("pages the members oldest first under %s", async (prefix) => {
    const owner = await seedOwner();
    const a = await seedMember(owner);
    const b = await seedMember(owner);
    const res = await owner.fetch("GET", path(owner.organizationId, "?page_size=2"), undefined, { prefix });
    expect(res.status).toBe(200);
    const page = await pageOf<"GET /organizations/{organizationPk}/members/">(res);
    expect(page.count).toBe(3);
    expect(page.results.map((m) => m.user.id)).toEqual([owner.userId, a.userId]);
    expect(page.results[0].isOwner).toBe(true);
    expect(page.previous).toBeNull();
    expect(page.next).toContain("page=2");
    const second = await list(owner, owner.organizationId, "?pageSize=2&page=2");
    expect(second.results.map((m) => m.id)).toEqual([b.memberId]);
    expect(second.next).toBeNull();
    await expectError(await owner.fetch("GET", path(owner.organizationId, "?pageSize=2&page=3")), 404, "not_found");
  });

  it("pagination=false returns a plain array", async () => {
    const owner = await seedOwner();
    const a = await seedMember(owner);
    const res = await owner.fetch("GET", path(owner.organizationId, "?pagination=false"));
    const body = await listOf<"GET /organizations/{organizationPk}/members/">(res);
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((m) => m.id)).toEqual([await memberIdOf(owner.organizationId, owner.userId), a.memberId]);
  });

  it("filters by query (name or e-mail, case-insensitive), group, ids and search (metadata too)", async () => {
    const owner = await seedOwner("Alice");
    const a = await seedMember(owner);
    const b = await seedMember(owner);
    const group = await addGroup(owner.organizationId, "Sales");
    await joinGroup(b.memberId, group);
    await setMetadata(a.memberId, { department: "Finance", employeeId: 4242424, remote: true });
    await setMetadata(b.memberId, { department: "Sales_Team" });

    expect((await list(owner, owner.organizationId, "?query=ALICE")).results.map((m) => m.user.id)).toEqual([
      owner.userId,
    ]);
    expect(
      (await list(owner, owner.organizationId, `?query=${a.email.split("@")[0].slice(-8).toUpperCase()}`)).results.map(
        (m) => m.id,
      ),
    ).toEqual([a.memberId]);
    const grouped = await list(owner, owner.organizationId, `?group=${group}`);
    expect(grouped.results.map((m) => m.id)).toEqual([b.memberId]);
    expect(grouped.results[0].groups).toEqual([{ id: group, name: "Sales" }]);
    expect(
      (await list(owner, owner.organizationId, `?ids=${b.memberId},${a.memberId}`)).results.map((m) => m.id),
    ).toEqual([a.memberId, b.memberId]);
    // As repeated keys too.
    expect(
      (await list(owner, owner.organizationId, `?ids=${b.memberId}&ids=${a.memberId}`)).results.map((m) => m.id),
    ).toEqual([a.memberId, b.memberId]);
    expect((await list(owner, owner.organizationId, "?search=finance")).results.map((m) => m.id)).toEqual([a.memberId]);
    expect((await list(owner, owner.organizationId, "?search=4242424")).results.map((m) => m.id)).toEqual([a.memberId]);
    expect((await list(owner, owner.organizationId, "?search=true")).results.map((m) => m.id)).toEqual([a.memberId]);
    // `_` is a literal character, not a LIKE wildcard; every word must match.
    expect((await list(owner, owner.organizationId, "?search=s_t")).results.map((m) => m.id)).toEqual([b.memberId]);
    expect((await list(owner, owner.organizationId, "?search=sxt")).count).toBe(0);
    expect((await list(owner, owner.organizationId, "?search=alice%20finance")).count).toBe(0);
    expect((await list(owner, owner.organizationId, "?search=sales%20member")).results.map((m) => m.id)).toEqual([
      b.memberId,
    ]);
  });

  it("filters by inbox: owners plus members of groups linked to the inbox's assistant", async () => {
    const owner = await seedOwner();
    const linked = await seedMember(owner);
    const unlinked = await seedMember(owner);
    const group = await addGroup(owner.organizationId);
    const otherGroup = await addGroup(owner.organizationId);
    await joinGroup(linked.memberId, group);
    await joinGroup(unlinked.memberId, otherGroup);
    const inbox = await seedInbox(owner.organizationId, owner.userId, [group]);
    const ids = (await list(owner, owner.organizationId, `?inbox=${inbox}`)).results.map((m) => m.user.id);
    expect(ids).toEqual([owner.userId, linked.userId]);
    // Another organization's inbox matches nobody here, not even the owner.
    const stranger = await seedOwner();
    const foreignInbox = await seedInbox(stranger.organizationId, stranger.userId, []);
    expect((await list(owner, owner.organizationId, `?inbox=${foreignInbox}`)).count).toBe(0);
  });

  it("400 naming the field for a malformed group, inbox or ids filter", async () => {
    const owner = await seedOwner();
    for (const [query, field] of [
      ["?group=nope", "group"],
      ["?inbox=nope", "inbox"],
      ["?ids=a,b", "ids"],
      ["?pagination=maybe", "pagination"],
    ]) {
      const body = await expectError(await owner.fetch("GET", path(owner.organizationId, query)), 400, "invalid");
      expect(Object.keys(body.errors!)).toContain(field);
    }
  });

  it("401 without a key", async () => {
    const owner = await seedOwner();
    await expectError(await call("GET", `/api${path(owner.organizationId)}`), 401, "not_authenticated");
  });

  it("403 without member.view; member.view or member.manage is enough", async () => {
    const owner = await seedOwner();
    const plain = await seedMember(owner, []);
    await expectError(await plain.fetch("GET", path(owner.organizationId)), 403, "permission_denied");
    expect((await list(await seedMember(owner, ["member.view"]), owner.organizationId)).count).toBe(3);
    expect((await list(await seedMember(owner, ["member.manage"]), owner.organizationId)).count).toBe(4);
  });

  it("404 for another organization's members", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    await expectError(await stranger.fetch("GET", path(owner.organizationId)), 404, "not_found");
    await expectError(await owner.fetch("GET", path(NO_SUCH_ID)), 404, "not_found");
  });
});
