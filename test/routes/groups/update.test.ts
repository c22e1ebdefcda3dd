import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner, unique } from "../../harness";
import { expectDenied, expectNotFound, expectInvalid } from "../../support/refusals";
import { codenames, createGroup, groupsPath, permissionId } from "./helpers";
import { bodyOf } from "../../support/api";

const path = (organizationId: string, id: string) => groupsPath(organizationId, `${id}/`);
const read = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return bodyOf<"GET /organizations/{organizationPk}/groups/{id}/">(res);
};

describe("PUT /organizations/{organizationPk}/groups/{id}/", () => {
  it.each(PREFIXES)("replaces name and permissions under %s", async (prefix) => {
    const owner = await seedOwner();
    const group = await createGroup(owner, ["chatbot.view", "contact.view"]);
    const name = unique("renamed");
    const body = { name, organization: owner.organizationId, permissions: [permissionId("knowledge_base.manage")] };
    const updated = await read(await owner.fetch("PUT", path(owner.organizationId, group.id), body, { prefix }));
    expect(updated).toMatchObject({ id: group.id, name, createdAt: group.createdAt });
    expect(codenames(updated)).toEqual(["knowledge_base.manage"]);
    expect(Number(updated.updatedAt)).toBeGreaterThanOrEqual(Number(group.updatedAt));
    expect(await read(await owner.fetch("GET", path(owner.organizationId, group.id)))).toEqual(updated);
  });

  it("400 without name or permissions, or with an unknown permission; nothing changes", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, ["chatbot.view"]);
    await expectInvalid(await owner.fetch("PUT", path(owner.organizationId, group.id), { name: "x" }), "permissions");
    await expectInvalid(
      await owner.fetch("PUT", path(owner.organizationId, group.id), { name: "x", permissions: [NO_SUCH_ID] }),
      "permissions",
    );
    expect(await read(await owner.fetch("GET", path(owner.organizationId, group.id)))).toEqual(group);
  });

  it("409 on renaming to another group's name, and nothing changes (permissions included)", async () => {
    const owner = await seedOwner();
    const a = await createGroup(owner, ["chatbot.view"]);
    const b = await createGroup(owner, []);
    await expectError(
      await owner.fetch("PUT", path(owner.organizationId, b.id), {
        name: a.name,
        permissions: [permissionId("group.manage")],
      }),
      409,
      "conflict",
    );
    expect(await read(await owner.fetch("GET", path(owner.organizationId, b.id)))).toEqual(b);
  });
});

describe("PATCH /organizations/{organizationPk}/groups/{id}/", () => {
  it("changes only what is sent (snake_case accepted)", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, ["chatbot.view"]);
    const renamed = await read(
      await owner.fetch("PATCH", path(owner.organizationId, group.id), { name: "Renamed" }, { prefix: "/api" }),
    );
    expect(renamed.name).toBe("Renamed");
    expect(codenames(renamed)).toEqual(["chatbot.view"]);
    const regranted = await read(
      await owner.fetch("PATCH", path(owner.organizationId, group.id), {
        permissions: [permissionId("tool.manage"), permissionId("statistics.view")],
      }),
    );
    expect(regranted.name).toBe("Renamed");
    expect(codenames(regranted)).toEqual(["statistics.view", "tool.manage"]);
    const cleared = await read(await owner.fetch("PATCH", path(owner.organizationId, group.id), { permissions: [] }));
    expect(cleared.permissions).toEqual([]);
    const untouched = await read(await owner.fetch("PATCH", path(owner.organizationId, group.id), {}));
    expect(untouched).toMatchObject({ name: "Renamed", permissions: [] });
  });

  it("400 on a wrong organization or an empty name; nothing changes", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const group = await createGroup(owner, ["chatbot.view"]);
    const wrong = await expectError(
      await owner.fetch("PATCH", path(owner.organizationId, group.id), {
        organization: other.organizationId,
        name: "x",
      }),
      400,
      "invalid",
    );
    expect(wrong.errors?.organization).toBeDefined();
    await expectError(await owner.fetch("PATCH", path(owner.organizationId, group.id), { name: "" }), 400, "invalid");
    expect(await read(await owner.fetch("GET", path(owner.organizationId, group.id)))).toEqual(group);
  });
});

describe("PUT and PATCH access", () => {
  it("403 with only group.view, 404 for another organization's group, 401 without a key", async () => {
    const owner = await seedOwner();
    const group = await createGroup(owner, []);
    const viewer = await seedMember(owner, ["group.view"]);
    const body = { name: "x", permissions: [] };
    for (const method of ["PUT", "PATCH"]) {
      await expectDenied(await viewer.fetch(method, path(owner.organizationId, group.id), body));
      const other = await seedOwner();
      const theirs = await createGroup(other, []);
      await expectNotFound(await owner.fetch(method, path(owner.organizationId, theirs.id), body));
      await expectNotFound(await owner.fetch(method, path(other.organizationId, theirs.id), body));
      await expectError(
        await call(method, `/api/v1${path(owner.organizationId, group.id)}`, body),
        401,
        "not_authenticated",
      );
    }
    expect(await read(await owner.fetch("GET", path(owner.organizationId, group.id)))).toEqual(group);
  });
});
