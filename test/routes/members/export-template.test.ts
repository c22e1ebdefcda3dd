import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectNeedsPermission, readXlsx, setMetadata } from "./helpers";

const path = (orgId: string) => `/organizations/${orgId}/members/export-template/`;

describe("GET /organizations/{organizationPk}/members/export-template/", () => {
  it.each(PREFIXES)("downloads an .xlsx holding only the import header under %s", async (prefix) => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    await setMetadata(member.memberId, { department: "Sales", employeeId: 3 });
    const res = await owner.fetch("GET", path(owner.organizationId), undefined, { prefix });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="members-template.xlsx"');
    expect(readXlsx(await res.arrayBuffer())).toEqual([["email", "name", "groups", "department", "employeeId"]]);
  });

  it("401 without a key", async () => {
    const owner = await seedOwner();
    await expectError(await call("GET", `/api/v1${path(owner.organizationId)}`), 401, "not_authenticated");
  });

  it("403 without member.manage (member.view is not enough)", async () => {
    const owner = await seedOwner();
    await expectNeedsPermission(owner, path(owner.organizationId), ["member.view"], "member.manage");
  });

  it("404 for another organization", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    await expectError(await stranger.fetch("GET", path(owner.organizationId)), 404, "not_found");
  });
});
