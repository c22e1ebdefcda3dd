import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectUnknownIds } from "../../support/refusals";
import { createFaq, createKnowledgeBase, createLabel, ingest } from "../../fixtures/knowledge";
import { bodyOf } from "../../support/api";

/** The local embedding model's vectors: 256 float32 dimensions (migrations/0006_knowledge_fts.sql). */
const VECTOR_BYTES = 256 * 4;

async function ok(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  return bodyOf<"GET /knowledge-bases/{id}/">(res);
}

describe("GET /knowledge-bases/{id}/", () => {
  it.each(PREFIXES)(
    "counts the files, chunks and vector bytes of ingested content, and lists its labels (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const kb = await createKnowledgeBase(owner);
      expect(kb).toMatchObject({ filesCount: 0, chunksCount: 0, vectorStorageSize: 0, labels: [] });
      await ingest(owner, kb.id, [
        {
          name: "policy.txt",
          content: "Refunds are paid within 14 days. Shipping is free above 50 euros.",
          type: "text/plain",
        },
      ]);
      const beta = await createLabel(owner, kb.id, "beta");
      const alpha = await createLabel(owner, kb.id, "alpha");
      const got = await ok(await owner.fetch("GET", `/knowledge-bases/${kb.id}/`, undefined, { prefix }));
      expect(got).toMatchObject({
        id: kb.id,
        name: kb.name,
        filesCount: 1,
        chunksCount: 1,
        vectorStorageSize: VECTOR_BYTES,
        labels: [
          { id: alpha.id, name: "alpha" },
          { id: beta.id, name: "beta" },
        ],
        canUpdate: true,
        canDelete: true,
        createdAt: kb.createdAt,
      });
      await createFaq(owner, kb.id, { question: "Do you ship abroad?", answer: "Yes, everywhere in Europe." });
      const withFaq = await ok(await owner.fetch("GET", `/knowledge-bases/${kb.id}/`, undefined, { prefix }));
      expect(withFaq).toMatchObject({ filesCount: 1, chunksCount: 2, vectorStorageSize: 2 * VECTOR_BYTES });
      const listed = await bodyOf<"GET /knowledge-bases/">(
        await owner.fetch("GET", "/knowledge-bases/", undefined, { prefix }),
      );
      expect(listed.results).toEqual([withFaq]);
    },
  );

  it("a viewer of one of its groups gets it with canUpdate and canDelete false", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["knowledge_base.view"]);
    const kb = await createKnowledgeBase(owner, { groups: [{ id: viewer.groupId }] });
    const got = await ok(await viewer.fetch("GET", `/knowledge-bases/${kb.id}/`));
    expect(got).toEqual({ ...kb, canUpdate: false, canDelete: false });
    const manager = await seedMember(owner, ["knowledge_base.manage"]);
    const mine = await createKnowledgeBase(manager);
    expect(await ok(await manager.fetch("GET", `/knowledge-bases/${mine.id}/`))).toMatchObject({
      id: mine.id,
      canUpdate: true,
      canDelete: true,
    });
  });

  it(
    "404 for another organization's, one the member cannot see, an unknown and a malformed id; 401 without a " + "key",
    async () => {
      const owner = await seedOwner();
      const kb = await createKnowledgeBase(owner);
      const stranger = await seedOwner();
      await createKnowledgeBase(stranger);
      const viewer = await seedMember(owner, ["knowledge_base.view"]);
      await expectUnknownIds(stranger, "/knowledge-bases/", kb.id);
      await expectError(await viewer.fetch("GET", `/knowledge-bases/${kb.id}/`), 404, "not_found");
      await expectError(await call("GET", `/api/v1/knowledge-bases/${kb.id}/`), 401, "not_authenticated");
      await expectError(await call("GET", `/api/knowledge-bases/${kb.id}/`), 401, "not_authenticated");
      expect((await ok(await owner.fetch("GET", `/knowledge-bases/${kb.id}/`))).id).toBe(kb.id);
    },
  );
});
