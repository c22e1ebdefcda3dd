// FAQ writes that fail or race: a provider failing under a create or an update, a PATCH racing the FAQ's DELETE, a
// create racing a change of the embedding model.
// The everyday FAQ routes are in faqs.test.ts.
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { expectError, seedOwner, type Actor } from "../../harness";
import { createFaq, createKnowledgeBase, createLabel } from "../../fixtures/knowledge";
import { bodyOf } from "../../support/api";
import { upstreamModel, upstreamRequestCount } from "../chat-completions/fixtures";
import { LOCAL_EMBEDDING } from "../../fixtures/chatbots";

const faqsOf = (kbId: string) => `/knowledge-bases/${kbId}/faqs/`;

/** A knowledge base whose embedding model answers `modelName`'s way on the local upstream. */
async function baseEmbeddingWith(owner: Actor, modelName: string) {
  const embedder = await upstreamModel(owner, { path: "/embedding-models/", modelName, dimensions: 8 });
  return await createKnowledgeBase(owner, { embeddingModel: embedder.id });
}

describe("FAQ writes when the embedding provider fails", () => {
  it("a create answered 502 stores no FAQ, so a client's retry makes no duplicate", async () => {
    const owner = await seedOwner();
    const kb = await baseEmbeddingWith(owner, `fail-500x99-${crypto.randomUUID()}`);
    for (let attempt = 0; attempt < 2; attempt++)
      await expectError(
        await owner.fetch("POST", faqsOf(kb.id), { question: "Open?", answer: "At 9." }),
        502,
        "upstream_error",
      );
    const listed = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/faqs/">(
      await owner.fetch("GET", faqsOf(kb.id)),
    );
    const record = await bodyOf<"GET /knowledge-bases/{id}/">(await owner.fetch("GET", `/knowledge-bases/${kb.id}/`));
    // Vectors never stored are not counted, and the base's embedding model may still be changed.
    expect({ faqs: listed.count, chunksCount: record.chunksCount, bytes: record.vectorStorageSize }).toEqual({
      faqs: 0,
      chunksCount: 0,
      bytes: 0,
    });
  });

  it("a provider answering 200 with an error body: 502 with its message, no FAQ stored", async () => {
    const owner = await seedOwner();
    const kb = await baseEmbeddingWith(owner, `error-200-${crypto.randomUUID()}`);
    const body = await expectError(
      await owner.fetch("POST", faqsOf(kb.id), { question: "Open?", answer: "At 9." }),
      502,
      "upstream_error",
    );
    expect(body.detail).toBe("The model provider failed: The provider is overloaded, try later.");
    const listed = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/faqs/">(
      await owner.fetch("GET", faqsOf(kb.id)),
    );
    expect(listed.count).toBe(0);
  });

  it("an update answered 502 leaves the FAQ as it was", async () => {
    const owner = await seedOwner();
    // The first request (the create) is answered, every later one fails.
    const kb = await baseEmbeddingWith(owner, `fail-500from2-${crypto.randomUUID()}`);
    const faq = await createFaq(owner, kb.id, { question: "Open?", answer: "At nine." });
    await expectError(
      await owner.fetch("PATCH", `${faqsOf(kb.id)}${faq.id}/`, { answer: "At ten." }),
      502,
      "upstream_error",
    );
    const after = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/faqs/{faqId}/">(
      await owner.fetch("GET", `${faqsOf(kb.id)}${faq.id}/`),
    );
    expect(after.answer).toBe("At nine.");
  });
});

describe("an FAQ PATCH racing the FAQ's DELETE", () => {
  it("is a 404 (or 200 when it came first), never a 500; no label link or index entry outlives the FAQ", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const label = await createLabel(owner, kb.id);
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      const faq = await createFaq(owner, kb.id, { question: "Open?", answer: "At nine." });
      const [patched, deleted] = await Promise.all([
        owner.fetch("PATCH", `${faqsOf(kb.id)}${faq.id}/`, { answer: "At ten.", labels: [{ id: label.id }] }),
        owner.fetch("DELETE", `${faqsOf(kb.id)}${faq.id}/`),
      ]);
      expect(deleted.status).toBe(204);
      statuses.push(patched.status);
    }
    expect(statuses.filter((s) => s !== 200 && s !== 404)).toEqual([]);
    const links = await env.DB.prepare("SELECT count(*) AS n FROM faq_labels WHERE label_id = ?")
      .bind(label.id)
      .first<{ n: number }>();
    expect(links?.n).toBe(0);
    const index = env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(kb.id));
    expect({ keywords: (await index.keywordStatus()).documents, vectors: await index.count() }).toEqual({
      keywords: 0,
      vectors: 0,
    });
  });
});

describe("an FAQ create racing a change of its knowledge base's embedding model", () => {
  /** An FAQ create whose embedding (by `name`, answering after 600 ms) is under way: the base still empty. */
  async function createUnderWay(owner: Actor, kbId: string, name: string, labelId: string) {
    const created = owner.fetch("POST", faqsOf(kbId), {
      question: "Open?",
      answer: "At 9.",
      labels: [{ id: labelId }],
    });
    await vi.waitFor(async () => expect(await upstreamRequestCount(name)).toBe(1), { interval: 10 });
    // In an object: an async function's answer that is a promise would be waited for.
    return { created };
  }
  const changeModel = async (owner: Actor, kbId: string, embeddingModel: string) => {
    const changed = await owner.fetch("PATCH", `/knowledge-bases/${kbId}/`, { embeddingModel });
    expect(changed.status, await changed.clone().text()).toBe(200);
  };
  const indexed = async (kbId: string) => {
    const index = env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(kbId));
    return { keywords: (await index.keywordStatus()).documents, vectors: await index.count() };
  };

  it("is embedded again by the new model and stored: no FAQ of the old model sits beside the new", async () => {
    const owner = await seedOwner();
    const name = `delay-600-${crypto.randomUUID()}`;
    const kb = await baseEmbeddingWith(owner, name);
    const label = await createLabel(owner, kb.id);
    const { created: creating } = await createUnderWay(owner, kb.id, name, label.id);
    await changeModel(owner, kb.id, LOCAL_EMBEDDING);
    const created = await creating;
    // Was a 409 asking the client to send it again.
    expect(created.status, await created.clone().text()).toBe(201);
    const faq = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/faqs/">(created);
    expect(faq.labels.map((l) => l.id)).toEqual([label.id]);
    // Embedded once by the old model only: the stored vector is the new model's (LOCAL_EMBEDDING calls no upstream).
    expect(await upstreamRequestCount(name)).toBe(1);
    expect(await indexed(kb.id)).toEqual({ keywords: 1, vectors: 1 });
    const found = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/search/">(
      await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: "Open?", searchMethod: "vector" }),
    );
    expect(found.results.length).toBeGreaterThan(0);
  });

  it("changed again during the retry, it is a 409 with nothing stored or indexed", async () => {
    const owner = await seedOwner();
    const first = `delay-600-${crypto.randomUUID()}`;
    const second = `delay-600-${crypto.randomUUID()}`;
    const kb = await baseEmbeddingWith(owner, first);
    const next = await upstreamModel(owner, { path: "/embedding-models/", modelName: second, dimensions: 8 });
    const label = await createLabel(owner, kb.id);
    const { created } = await createUnderWay(owner, kb.id, first, label.id);
    await changeModel(owner, kb.id, next.id);
    await vi.waitFor(async () => expect(await upstreamRequestCount(second)).toBe(1), { interval: 10 });
    await changeModel(owner, kb.id, LOCAL_EMBEDDING);
    await expectError(await created, 409, "conflict");
    const listed = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/faqs/">(
      await owner.fetch("GET", faqsOf(kb.id)),
    );
    expect(listed.count).toBe(0);
    expect(await indexed(kb.id)).toEqual({ keywords: 0, vectors: 0 });
    // Sent again, it is embedded by the new model and stored.
    await createFaq(owner, kb.id, { question: "Open?", answer: "At 9." });
  });
});
