import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { members } from "../../../src/db/schema";
import { NO_SUCH_ID, PREFIXES, call, db, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { memberIdOf } from "./helpers";

const path = (orgId: string, id: string) => `/organizations/${orgId}/members/${id}/`;
const exists = async (id: string) => (await db().select().from(members).where(eq(members.id, id))).length === 1;

describe("DELETE /organizations/{organizationPk}/members/{id}/", () => {
  it.each(PREFIXES)("the owner removes a member under %s (204), after which the member is gone", async (prefix) => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["chatbot.view"]);
    const res = await owner.fetch("DELETE", path(owner.organizationId, member.memberId), undefined, { prefix });
    expect(res.status).toBe(204);
    expect(await exists(member.memberId)).toBe(false);
    await expectNotFound(await member.fetch("GET", `/organizations/${owner.organizationId}/members/current/`));
  });

  it("a member may leave without member.manage", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, []);
    expect((await member.fetch("DELETE", path(owner.organizationId, member.memberId))).status).toBe(204);
    expect(await exists(member.memberId)).toBe(false);
  });

  it("400 for the owner, even by themselves or a member manager, and the owner stays", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["member.manage"]);
    const ownerMemberId = await memberIdOf(owner.organizationId, owner.userId);
    await expectError(await owner.fetch("DELETE", path(owner.organizationId, ownerMemberId)), 400, "invalid");
    await expectError(await manager.fetch("DELETE", path(owner.organizationId, ownerMemberId)), 400, "invalid");
    expect(await exists(ownerMemberId)).toBe(true);
  });

  it("401 without a key", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    await expectError(
      await call("DELETE", `/api/v1${path(owner.organizationId, member.memberId)}`),
      401,
      "not_authenticated",
    );
    expect(await exists(member.memberId)).toBe(true);
  });

  it("403 when removing someone else without member.manage; member.manage may", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["member.view"]);
    const target = await seedMember(owner);
    await expectDenied(await viewer.fetch("DELETE", path(owner.organizationId, target.memberId)));
    expect(await exists(target.memberId)).toBe(true);
    const manager = await seedMember(owner, ["member.manage"]);
    expect((await manager.fetch("DELETE", path(owner.organizationId, target.memberId))).status).toBe(204);
  });

  it("404 for another organization's member, and nothing is removed", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("DELETE", path(owner.organizationId, member.memberId)));
    await expectNotFound(await stranger.fetch("DELETE", path(stranger.organizationId, member.memberId)));
    await expectNotFound(await owner.fetch("DELETE", path(owner.organizationId, NO_SUCH_ID)));
    expect(await exists(member.memberId)).toBe(true);
  });
});
