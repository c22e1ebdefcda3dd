import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";

describe("GET /organizations/{id}/", () => {
  it.each(PREFIXES)("returns the organization record to any member under %s", async (prefix) => {
    const owner = await seedOwner();
    const member = await seedMember(owner, []);
    for (const actor of [owner, member]) {
      const res = await actor.fetch("GET", `/organizations/${owner.organizationId}/`, undefined, { prefix });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        id: owner.organizationId,
        organizationPlan: { planName: "Self-hosted" },
        usageStatistics: { createChatbotLimit: null, canCreateChatbot: true },
        creditWallet: { id: expect.any(String) },
      });
    }
  });

  it("401 without a key", async () => {
    const owner = await seedOwner();
    await expectError(await call("GET", `/api/v1/organizations/${owner.organizationId}/`), 401, "not_authenticated");
  });

  it("404 for a non-member, an unknown id and a malformed id", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    await expectError(await stranger.fetch("GET", `/organizations/${owner.organizationId}/`), 404, "not_found");
    await expectError(await owner.fetch("GET", `/organizations/${NO_SUCH_ID}/`), 404, "not_found");
    await expectError(await owner.fetch("GET", "/organizations/nope/"), 404, "not_found");
  });
});
