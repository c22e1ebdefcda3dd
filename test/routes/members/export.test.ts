import { describe, expect, it } from "vitest";
import { PREFIXES, db, seedMember, seedOwner } from "../../harness";
import { expectInvalid } from "../../support/refusals";
import { members } from "../../../src/db/schema";
import { eq } from "drizzle-orm";
import { excelSerial, readXlsx } from "../../support/xlsx";
import { addGroup, itGuardsRead, joinGroup, setMetadata } from "./helpers";

const path = (orgId: string, query = "") => `/organizations/${orgId}/members/export/${query}`;
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

describe("GET /organizations/{organizationPk}/members/export/", () => {
  it.each(PREFIXES)("downloads a real .xlsx with one row per member under %s", async (prefix) => {
    const owner = await seedOwner("Owner <&> One");
    const member = await seedMember(owner);
    const [sales, west] = [await addGroup(owner.organizationId, "Sales"), await addGroup(owner.organizationId, "West")];
    await joinGroup(member.memberId, sales);
    await joinGroup(member.memberId, west);
    await setMetadata(member.memberId, { department: "Field", badge: 17, tags: ["a"] });
    const res = await owner.fetch("GET", path(owner.organizationId), undefined, { prefix });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(XLSX);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="members-${today}.xlsx"`);
    expect(res.headers.get("X-Request-Id")).toBeTruthy();
    const rows = readXlsx(await res.arrayBuffer());
    expect(rows[0]).toEqual(["Name", "Email", "Groups", "Owner", "Joined", "department", "badge", "tags"]);
    expect(rows).toHaveLength(3);
    const [ownerRow] = await db().select().from(members).where(eq(members.userId, owner.userId));
    expect(rows[1]).toEqual([
      "Owner <&> One",
      owner.email.toLowerCase(),
      null,
      true,
      expect.any(Number),
      null,
      null,
      null,
    ]);
    expect(rows[1][4]).toBeCloseTo(excelSerial(ownerRow.createdAt), 6);
    const [memberRow] = await db().select().from(members).where(eq(members.id, member.memberId));
    expect(rows[2]).toEqual(["member", member.email, "Sales, West", false, expect.any(Number), "Field", 17, '["a"]']);
    expect(rows[2][4]).toBeCloseTo(excelSerial(memberRow.createdAt), 6);
  });

  it("takes the list's filters", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    const rows = readXlsx(
      await (await owner.fetch("GET", path(owner.organizationId, `?ids=${member.memberId}`))).arrayBuffer(),
    );
    expect(rows.slice(1).map((r) => r[1])).toEqual([member.email]);
  });

  it("400 naming the field for a malformed filter", async () => {
    const owner = await seedOwner();
    await expectInvalid(await owner.fetch("GET", path(owner.organizationId, "?group=nope")), "group");
  });

  itGuardsRead(path, "member.view");
});
