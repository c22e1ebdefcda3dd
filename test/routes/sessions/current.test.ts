import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { PASSWORD, signIn, withPassword } from "./fixtures";
import { bodyOf } from "../../support/api";

describe("GET /auth/sessions/current/", () => {
  it.each(PREFIXES)("returns the session, its user and their memberships under %s", async (prefix) => {
    const owner = await seedOwner();
    const member = await withPassword(await seedMember(owner, ["knowledge_base.manage", "statistics.view"]));
    const browser = await signIn({ email: member.email, password: PASSWORD });
    const res = await browser.fetch("GET", "/auth/sessions/current/", undefined, { prefix });
    expect(res.status).toBe(200);
    const body = await bodyOf<"GET /auth/sessions/current/">(res);
    expect(body.session).toMatchObject({ id: browser.sessionId, current: true });
    expect(body.user.id).toBe(member.userId);
    expect(body.memberships.find((m) => m.organization.id === owner.organizationId)).toEqual({
      organization: { id: owner.organizationId, name: expect.any(String) },
      isOwner: false,
      permissions: ["knowledge_base.view", "knowledge_base.manage", "statistics.view"],
    });
  });

  it("404 for a request made with an API key", async () => {
    const owner = await seedOwner();
    await expectError(await owner.fetch("GET", "/auth/sessions/current/"), 404, "not_found");
  });

  it("401 without credentials", async () => {
    await expectError(await call("GET", "/api/v1/auth/sessions/current/"), 401, "not_authenticated");
  });
});
