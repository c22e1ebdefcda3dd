import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { expectUnknownIds } from "../../support/refusals";
import { createKnowledgeBase, uploadFiles } from "../../fixtures/knowledge";
import { PNG, uploadKey } from "../attachments/support";
import { bodyOf } from "../../support/api";

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
    await expectUnknownIds(stranger, "/organizations/", owner.organizationId);
  });

  it("usedUploadFileSizeTotal counts the bytes the organization uploads, each once", async () => {
    const owner = await seedOwner();
    const used = async (actor: Actor) =>
      (await bodyOf<"GET /organizations/{id}/">(await actor.fetch("GET", `/organizations/${actor.organizationId}/`)))
        .usageStatistics.usedUploadFileSizeTotal;
    expect(await used(owner)).toBe(0);
    // A presigned upload, and a direct one.
    const key = await uploadKey(owner, "notes.txt", new TextEncoder().encode("Opening hours: 9 to 5."), "text/plain");
    const form = new FormData();
    form.append("file", new File([PNG], "cat.png", { type: "image/png" }));
    expect((await owner.fetch("POST", "/attachments-upload/", form)).status).toBe(200);
    expect(await used(owner)).toBe(22 + PNG.length);
    // A knowledge base file sent in the request counts; one made from an upload was counted with the upload.
    const kb = await createKnowledgeBase(owner);
    await uploadFiles(owner, kb.id, [{ name: "policy.txt", content: "Refunds within 14 days." }]);
    const res = await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, {
      files: [{ file: key, filename: "notes.txt" }],
    });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await used(owner)).toBe(22 + PNG.length + 23);
    // Another organization's uploads are its own.
    expect(await used(await seedOwner("other"))).toBe(0);
  });
});
