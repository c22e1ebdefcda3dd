import { describe, expect, it } from "vitest";
import { PERMISSIONS } from "../../../src/services/permissions";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { type Body, bodyOf } from "../../support/api";

const list = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return bodyOf<"GET /permissions/">(res);
};
const granted = (entries: Body<"GET /permissions/">) =>
  entries
    .filter((p) => p.granted)
    .map((p) => p.codename)
    .sort();

describe("GET /permissions/", () => {
  it.each(PREFIXES)(
    "returns the whole catalogue with stable ids, all granted to an owner, under %s",
    async (prefix) => {
      const owner = await seedOwner();
      const entries = await list(await owner.fetch("GET", "/permissions/", undefined, { prefix }));
      expect(entries.map(({ id, name, codename }) => ({ id, name, codename }))).toEqual(
        PERMISSIONS.map(({ id, name, codename }) => ({ id, name, codename })),
      );
      // Groups store these ids: they must never change.
      expect(entries.find((p) => p.codename === "group.view")?.id).toBe("6a1f0d5e-0001-4000-8000-000000000004");
      expect(entries.find((p) => p.codename === "chatbot.manage")?.id).toBe("6a1f0d5e-0001-4000-8000-000000000007");
      expect(entries.every((p) => p.granted)).toBe(true);
    },
  );

  it("grants a member only its groups' permissions, with .view implied by .manage", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["group.manage", "chatbot.view"]);
    const entries = await list(await member.fetch("GET", "/permissions/"));
    expect(entries).toHaveLength(PERMISSIONS.length);
    expect(granted(entries)).toEqual(["chatbot.view", "group.manage", "group.view"]);
  });

  it("grants nothing to a member without groups", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    expect(granted(await list(await member.fetch("GET", "/permissions/")))).toEqual([]);
  });

  it("answers for the organization of X-Organization-Id; another organization is 404", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["chatbot.view"]);
    // Without the header the key acts in the member's own organization, where they are the owner.
    const own = await list(
      await call("GET", "/api/v1/permissions/", undefined, { Authorization: `Api-Key ${member.key}` }),
    );
    expect(own.every((p) => p.granted)).toBe(true);
    const stranger = await seedOwner();
    await expectError(
      await member.fetch("GET", "/permissions/", undefined, {
        headers: { "X-Organization-Id": stranger.organizationId },
      }),
      404,
      "not_found",
    );
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", "/api/v1/permissions/"), 401, "not_authenticated");
  });
});
