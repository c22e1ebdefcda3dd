import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { groups } from "../../../src/db/schema";
import { PREFIXES, call, db, expectError, seedMember, seedOwner, unique } from "../../harness";
import { expectInvalid } from "../../support/refusals";
import { codenames, createGroup, groupsPath, permissionId } from "./helpers";
import { bodyOf } from "../../support/api";

const named = (organizationId: string, name: string) =>
  db()
    .select()
    .from(groups)
    .where(and(eq(groups.organizationId, organizationId), eq(groups.name, name)));

describe("POST /organizations/{organizationPk}/groups/", () => {
  it.each(PREFIXES)("creates a group with its permissions under %s", async (prefix) => {
    const owner = await seedOwner();
    const name = unique("Support");
    const res = await owner.fetch(
      "POST",
      groupsPath(owner.organizationId),
      {
        name,
        organization: owner.organizationId,
        permissions: [permissionId("chatbot.view"), permissionId("group.manage"), permissionId("chatbot.view")],
      },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const group = await bodyOf<"POST /organizations/{organizationPk}/groups/">(res);
    expect(group).toMatchObject({ name, organization: owner.organizationId, membersCount: 0 });
    expect(group.createdAt).toMatch(/^\d+$/);
    expect(group.updatedAt).toMatch(/^\d+$/);
    expect(group.permissions).toContainEqual({
      id: permissionId("chatbot.view"),
      name: "View assistants",
      codename: "chatbot.view",
    });
    expect(codenames(group)).toEqual(["chatbot.view", "group.manage"]);
  });

  it("accepts an empty permission list", async () => {
    const owner = await seedOwner();
    expect((await createGroup(owner, [])).permissions).toEqual([]);
  });

  it("400 naming the field on an unknown permission, a missing name or permissions, and writes nothing", async () => {
    const owner = await seedOwner();
    const name = unique("bad");
    await expectInvalid(
      await owner.fetch("POST", groupsPath(owner.organizationId), {
        name,
        permissions: [permissionId("chatbot.view"), "01900000-0000-7000-8000-000000000000"],
      }),
      "permissions",
    );
    const missing = await expectError(
      await owner.fetch("POST", groupsPath(owner.organizationId), { name: " " }),
      400,
      "invalid",
    );
    expect(Object.keys(missing.errors!).sort()).toEqual(["name", "permissions"]);
    expect(await named(owner.organizationId, name)).toHaveLength(0);
  });

  it("400 when `organization` is not the organization in the path", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const name = unique("wrong-org");
    const body = await expectError(
      await owner.fetch("POST", groupsPath(owner.organizationId), {
        name,
        organization: other.organizationId,
        permissions: [],
      }),
      400,
      "invalid",
    );
    expect(body.errors?.organization).toBeDefined();
    expect(await named(owner.organizationId, name)).toHaveLength(0);
    expect(await named(other.organizationId, name)).toHaveLength(0);
  });

  it("409 on a name already used in the organization; the same name is fine elsewhere", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const group = await createGroup(owner, ["chatbot.view"]);
    await expectError(
      await owner.fetch("POST", groupsPath(owner.organizationId), { name: group.name, permissions: [] }),
      409,
      "conflict",
    );
    expect(await named(owner.organizationId, group.name)).toHaveLength(1);
    expect((await createGroup(other, [], group.name)).name).toBe(group.name);
  });

  it("403 for a member with only group.view; 404 for a non-member; 401 without a key", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["group.view"]);
    const body = { name: unique("nope"), permissions: [] };
    await expectError(await viewer.fetch("POST", groupsPath(owner.organizationId), body), 403, "permission_denied");
    const stranger = await seedOwner();
    await expectError(await stranger.fetch("POST", groupsPath(owner.organizationId), body), 404, "not_found");
    await expectError(await owner.fetch("POST", "/organizations/not-a-uuid/groups/", body), 404, "not_found");
    await expectError(await call("POST", `/api/v1${groupsPath(owner.organizationId)}`, body), 401, "not_authenticated");
    expect(await named(owner.organizationId, body.name)).toHaveLength(0);
  });

  it("a member with group.manage can create groups with permissions they hold", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["group.manage", "chatbot.view"]);
    expect((await createGroup(manager, ["chatbot.view"])).organization).toBe(owner.organizationId);
  });
});
