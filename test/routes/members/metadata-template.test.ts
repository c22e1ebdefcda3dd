import { describe, expect, it } from "vitest";
import { PREFIXES, seedMember, seedOwner } from "../../harness";
import { itGuardsRead, setMetadata } from "./helpers";

const path = (orgId: string) => `/organizations/${orgId}/members/metadata-template/`;

describe("GET /organizations/{organizationPk}/members/metadata-template/", () => {
  it.each(PREFIXES)("lists each metadata key in use once, with label and type, under %s", async (prefix) => {
    const owner = await seedOwner();
    const a = await seedMember(owner);
    const b = await seedMember(owner);
    await setMetadata(a.memberId, { department: "Sales", employeeId: 7, remote: true });
    await setMetadata(b.memberId, { department: "Support", cost_center: null, employeeId: "E-8", skills: ["sql"] });
    const other = await seedOwner();
    const foreign = await seedMember(other);
    await setMetadata(foreign.memberId, { secretKey: "x" });
    const res = await owner.fetch("GET", path(owner.organizationId), undefined, { prefix });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      fields: [
        { key: "department", label: "Department", type: "string" },
        { key: "employeeId", label: "Employee id", type: "string" },
        { key: "remote", label: "Remote", type: "boolean" },
        { key: "cost_center", label: "Cost center", type: "string" },
        { key: "skills", label: "Skills", type: "array" },
      ],
    });
  });

  it("is empty without metadata", async () => {
    const owner = await seedOwner();
    expect(await (await owner.fetch("GET", path(owner.organizationId))).json()).toEqual({ fields: [] });
  });

  itGuardsRead(path, "member.view");
});
