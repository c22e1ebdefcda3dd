import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createKnowledgeBase, ingest } from "../../fixtures/knowledge";
import { bodyOf } from "../../support/api";
import { upstreamModel } from "../chat-completions/fixtures";

type Owner = Awaited<ReturnType<typeof seedOwner>>;

const ARTICLES = [
  { name: "refunds.txt", content: "Refunds are paid back to the original card within fourteen days." },
  {
    name: "shipping.txt",
    content: "Parcels ship from our Rotterdam warehouse. Express shipping arrives the next working day.",
  },
];

/** An owner, a viewer of the base (through a group), and the base's two one-node files. */
async function world() {
  const owner = await seedOwner();
  const viewer = await seedMember(owner, ["knowledge_base.view"]);
  const kb = await createKnowledgeBase(owner, { groups: [{ id: viewer.groupId }], sentenceWindowSize: 0 });
  const [refunds, shipping] = await ingest(owner, kb.id, ARTICLES);
  const nodeOf = async (fileId: string) =>
    (
      await bodyOf<"GET /chatbot-text-nodes/">(
        await owner.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${fileId}`),
      )
    ).results[0];
  return {
    owner,
    viewer,
    kb,
    refunds,
    shipping,
    refundsNode: await nodeOf(refunds.id),
    shippingNode: await nodeOf(shipping.id),
  };
}

const found = async (owner: Owner, kbId: string, query: string, searchMethod: string) => {
  const res = await owner.fetch("POST", `/knowledge-bases/${kbId}/search/`, { query, searchMethod });
  return (await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/search/">(res)).results;
};

describe("PATCH /chatbot-text-nodes/{id}/", () => {
  it.each(PREFIXES)("rewrites the text, indexed again for keyword and vector search (%s)", async (prefix) => {
    const { owner, kb, refundsNode } = await world();
    const res = await owner.fetch(
      "PATCH",
      `/chatbot-text-nodes/${refundsNode.id}/`,
      { text: "Refunds reach the original card within five working days." },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const node = await bodyOf<"PATCH /chatbot-text-nodes/{id}/">(res);
    expect(node).toMatchObject({
      id: refundsNode.id,
      text: "Refunds reach the original card within five working days.",
      charactersCount: 57,
    });
    // The form of the prefix (CONTRACT section 1).
    expect("knowledgeBaseFile" in node).toBe(prefix === "/api/v1");
    for (const method of ["keyword", "vector"])
      expect((await found(owner, kb.id, "five working days", method))[0]?.id, method).toBe(refundsNode.id);
    expect((await found(owner, kb.id, "fourteen", "keyword")).map((r) => r.id)).not.toContain(refundsNode.id);
    const again = await bodyOf<"GET /chatbot-text-nodes/{id}/">(
      await owner.fetch("GET", `/chatbot-text-nodes/${refundsNode.id}/`),
    );
    expect(again.text).toBe("Refunds reach the original card within five working days.");
  });

  it(
    "400 for an empty or missing text, nothing written; 401; 403 for a viewer; 404 for another organization's " +
      "node",
    async () => {
      const { owner, viewer, refundsNode } = await world();
      for (const body of [{}, { text: "   " }, { text: 42 }]) {
        const error = await expectError(
          await owner.fetch("PATCH", `/chatbot-text-nodes/${refundsNode.id}/`, body),
          400,
          "invalid",
        );
        expect(error.errors?.text).toBeTruthy();
      }
      await expectError(
        await call("PATCH", `/api/v1/chatbot-text-nodes/${refundsNode.id}/`, { text: "x" }),
        401,
        "not_authenticated",
      );
      await expectDenied(await viewer.fetch("PATCH", `/chatbot-text-nodes/${refundsNode.id}/`, { text: "x" }));
      const stranger = await seedOwner();
      await expectNotFound(await stranger.fetch("PATCH", `/chatbot-text-nodes/${refundsNode.id}/`, { text: "x" }));
      await expectNotFound(await owner.fetch("PATCH", `/chatbot-text-nodes/${NO_SUCH_ID}/`, { text: "x" }));
      const unchanged = await bodyOf<"GET /chatbot-text-nodes/{id}/">(
        await owner.fetch("GET", `/chatbot-text-nodes/${refundsNode.id}/`),
      );
      expect(unchanged.text).toBe(refundsNode.text);
    },
  );

  it("an embedding provider that fails is a 502 (upstream_error), and the passage stays as it was", async () => {
    const owner = await seedOwner();
    // The first request (the file's ingestion) is answered, every later one fails.
    const embedder = await upstreamModel(owner, {
      path: "/embedding-models/",
      modelName: `fail-500from2-${crypto.randomUUID()}`,
      dimensions: 8,
    });
    const kb = await createKnowledgeBase(owner, { embeddingModel: embedder.id });
    const [file] = await ingest(owner, kb.id, [{ name: "hours.txt", content: "Our office opens at nine." }]);
    const nodes = await bodyOf<"GET /chatbot-text-nodes/">(
      await owner.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${file.id}`),
    );
    const node = nodes.results[0] as { id: string; text: string };
    const res = await owner.fetch("PATCH", `/chatbot-text-nodes/${node.id}/`, { text: "We open at ten now." });
    await expectError(res, 502, "upstream_error");
    const after = await bodyOf<"GET /chatbot-text-nodes/{id}/">(
      await owner.fetch("GET", `/chatbot-text-nodes/${node.id}/`),
    );
    expect(after.text).toBe(node.text);
    expect(await found(owner, kb.id, "ten", "keyword")).toEqual([]);
  });

  it("racing the node's DELETE, it leaves no deleted passage in the index to crowd out live ones", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner, { numberOfRetrievedChunks: 1, sentenceWindowSize: 0 });
    const [live] = await ingest(owner, kb.id, [
      {
        name: "live.txt",
        content: "A refund is paid to the original card within fourteen working days of the return.",
      },
    ]);
    const [doomed] = await ingest(owner, kb.id, [{ name: "doomed.txt", content: "Parcels ship from Rotterdam." }]);
    const nodes = await bodyOf<"GET /chatbot-text-nodes/">(
      await owner.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${doomed.id}`),
    );
    const id = (nodes.results[0] as { id: string }).id;
    const [patched, deleted] = await Promise.all([
      owner.fetch("PATCH", `/chatbot-text-nodes/${id}/`, { text: "Refund refund refund." }),
      owner.fetch("DELETE", `/chatbot-text-nodes/${id}/`),
    ]);
    expect(deleted.status).toBe(204);
    // 404 when the delete came first (or finished while the PATCH indexed); 200 only if the PATCH was done before it.
    expect([200, 404]).toContain(patched.status);
    expect((await owner.fetch("GET", `/chatbot-text-nodes/${id}/`)).status).toBe(404);
    const index = env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(kb.id));
    expect({ keywords: (await index.keywordStatus()).documents, vectors: await index.count() }).toEqual({
      keywords: 1,
      vectors: 1,
    });
    for (const method of ["keyword", "vector"])
      expect(
        (await found(owner, kb.id, "refund", method)).map((r) => r.knowledgeBaseFile?.id),
        method,
      ).toEqual([live.id]);
  });
});

describe("DELETE /chatbot-text-nodes/{id}/", () => {
  it.each(PREFIXES)("removes the node from every search and from its file's count (%s)", async (prefix) => {
    const { owner, kb, shipping, shippingNode } = await world();
    expect((await found(owner, kb.id, "Rotterdam warehouse", "keyword"))[0]?.id).toBe(shippingNode.id);
    const res = await owner.fetch("DELETE", `/chatbot-text-nodes/${shippingNode.id}/`, undefined, { prefix });
    expect(res.status).toBe(204);
    for (const method of ["keyword", "vector", "hybrid"])
      expect(
        (await found(owner, kb.id, "Rotterdam warehouse", method)).map((r) => r.id),
        method,
      ).not.toContain(shippingNode.id);
    expect((await owner.fetch("GET", `/chatbot-text-nodes/${shippingNode.id}/`)).status).toBe(404);
    const file = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/files/{fileId}/">(
      await owner.fetch("GET", `/knowledge-bases/${kb.id}/files/${shipping.id}/`),
    );
    expect(file).toMatchObject({ chunksCount: 0, vectorStorageSize: 0 });
  });

  it("401; 403 for a viewer; 404 for another organization's node; nothing removed", async () => {
    const { owner, viewer, shippingNode } = await world();
    await expectError(await call("DELETE", `/api/v1/chatbot-text-nodes/${shippingNode.id}/`), 401, "not_authenticated");
    await expectDenied(await viewer.fetch("DELETE", `/chatbot-text-nodes/${shippingNode.id}/`));
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("DELETE", `/chatbot-text-nodes/${shippingNode.id}/`));
    await expectNotFound(await owner.fetch("DELETE", `/chatbot-text-nodes/${NO_SUCH_ID}/`));
    expect((await owner.fetch("GET", `/chatbot-text-nodes/${shippingNode.id}/`)).status).toBe(200);
  });
});
