import { describe, expect, it } from "vitest";
import { PREFIXES, seedMember, seedOwner } from "../../harness";
import { readXlsx } from "../../support/xlsx";
import { itGuardsRead, setMetadata } from "./helpers";

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

  itGuardsRead(path, "member.manage", ["member.view"]);
});
