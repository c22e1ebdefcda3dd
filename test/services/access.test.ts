// Which organization a request acts in when its path names none (services/access.ts currentAccess).
import { describe, expect, it } from "vitest";
import { call, expectError, seedMember, seedOwner, unique } from "../harness";
import { ownOrganizationOf } from "../routes/chatbots/helpers";
import { signIn } from "../routes/sessions/fixtures";

describe("the organization a request acts in", () => {
  it("an API key made in an organization its user has left acts in none of theirs, unless one is named", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["contact.manage"]);
    // The member's integration key, made while acting in the owner's organization.
    const made = await member.fetch("POST", "/api-keys/", { name: unique("integration") });
    expect(made.status, await made.clone().text()).toBe(201);
    const { key } = (await made.json()) as { key: string };
    const withKey = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      call(method, `/api/v1${path}`, body, { Authorization: `Api-Key ${key}`, ...headers });
    expect((await withKey("POST", "/contacts/", { name: "Customer of the owner" })).status).toBe(201);
    expect(
      (await owner.fetch("DELETE", `/organizations/${owner.organizationId}/members/${member.memberId}/`)).status,
    ).toBe(204);
    // The integration keeps sending the owner's customers: they must not land in the member's own organization.
    const refused = await expectError(
      await withKey("POST", "/contacts/", { name: "Another customer of the owner" }),
      403,
      "permission_denied",
    );
    expect(refused.detail).toContain("no longer a member");
    // The key is still its user's: named explicitly, another of their organizations is theirs to act in.
    const own = await ownOrganizationOf(member.userId);
    const named = await withKey("POST", "/contacts/", { name: "My own customer" }, { "X-Organization-Id": own });
    expect(named.status, await named.clone().text()).toBe(201);
  });

  it("a console session whose organization was left falls back to the user's oldest membership", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["contact.manage"]);
    const made = await member.fetch("POST", "/api-keys/", { name: unique("console") });
    const { key } = (await made.json()) as { key: string };
    // Signed in with that key: the session acts in the owner's organization by default.
    const browser = await signIn({ apiKey: key });
    expect(
      (await owner.fetch("DELETE", `/organizations/${owner.organizationId}/members/${member.memberId}/`)).status,
    ).toBe(204);
    // The session is the person, not an integration: it goes on in the organization they still belong to.
    const created = await browser.fetch("POST", "/contacts/", { name: "My own customer" });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const own = await ownOrganizationOf(member.userId);
    const headers = { "X-Organization-Id": own };
    expect((await member.fetch("GET", `/contacts/${id}/`, undefined, { headers })).status).toBe(200);
  });
});
