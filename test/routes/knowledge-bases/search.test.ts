import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { rebuildKeywordIndex } from "../../../src/services/knowledge/retrieval/knowledge-index";
import type { Bindings } from "../../../src/env";
import { NO_SUCH_ID, PREFIXES, call, db, expectError, seedMember, seedOwner } from "../../harness";
import { expectNotFound } from "../../support/refusals";
import { createFaq, createKnowledgeBase, ingest } from "../../fixtures/knowledge";
import { bodyOf } from "../../support/api";
import { upstreamModel } from "../chat-completions/fixtures";

const ARTICLES = [
  {
    name: "refunds.txt",
    content:
      "Refunds are paid back to the original card within fourteen days. A refund for a gift goes to the gift card.",
  },
  {
    name: "shipping.txt",
    content: "Parcels ship from our Rotterdam warehouse. Express shipping arrives the next working day.",
  },
  {
    name: "security.txt",
    content: "Turn on two-factor authentication in the account settings. Passwords must have twelve characters.",
  },
  { name: "退货.txt", content: "退货政策：收到商品后三十天内可以申请退货。退货运费由买家承担。" },
  { name: "配送.txt", content: "我们从鹿特丹仓库发货。快递一般在下一个工作日送达。" },
  { name: "密钥.txt", content: "在控制台生成API密钥后，用webhook回调验证签名。" },
];

async function searchable(owner: Awaited<ReturnType<typeof seedOwner>>, settings: Record<string, unknown> = {}) {
  const kb = await createKnowledgeBase(owner, { sentenceWindowSize: 0, ...settings });
  await ingest(owner, kb.id, ARTICLES);
  return kb;
}

const search = async (
  owner: Awaited<ReturnType<typeof seedOwner>>,
  kbId: string,
  body: Record<string, unknown>,
  prefix = "/api/v1",
) => {
  const res = await owner.fetch("POST", `/knowledge-bases/${kbId}/search/`, body, { prefix });
  expect(res.status, await res.clone().text()).toBe(200);
  return await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/search/">(res);
};

/** The base's index object, its keyword index emptied and marked incomplete (as a base indexed before it existed). */
async function withoutKeywordIndex(kbId: string) {
  const stub = env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(kbId));
  await runInDurableObject(stub, (_, state) => {
    for (const table of ["keyword_documents", "keyword_terms", "keyword_blocks"])
      state.storage.sql.exec(`DELETE FROM ${table}`);
    state.storage.sql.exec("DELETE FROM keyword_state");
  });
  await evictDurableObject(stub);
  return stub;
}

describe("POST /knowledge-bases/{id}/search/", () => {
  it.each(PREFIXES)("finds the passage that answers, best first, with scores and highlights (%s)", async (prefix) => {
    const owner = await seedOwner();
    const kb = await searchable(owner);
    const page = await search(owner, kb.id, { query: "how long until my refund is paid?" }, prefix);
    expect(page.results[0].knowledgeBaseFile?.filename).toBe("refunds.txt");
    expect(page.results[0].score).toBeGreaterThan(0);
    expect(page.results[0].score).toBeLessThanOrEqual(1);
    expect(page.results[0].highlightedText).toContain("<mark>refund</mark>");
    const scores = page.results.map((r) => r.score);
    const timing = (
      await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: "refund" }, { prefix })
    ).headers.get("Server-Timing");
    // Both legs are answered by the base's index object in one call (durable-objects/vector-index.ts).
    expect(timing).toMatch(/index;dur=[\d.]+/);
    expect(timing).toMatch(/hits;dur=[\d.]+/);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it(
    "a base whose keyword index lacks its content is searched through FTS5 meanwhile, and filled by the " +
      "ingestion queue",
    async () => {
      const owner = await seedOwner();
      const kb = await searchable(owner);
      const query = { query: "refund to the gift card, or warehouse shipping?", searchMethod: "keyword" };
      const before = await search(owner, kb.id, query);
      expect(before.results[0].knowledgeBaseFile?.filename).toBe("refunds.txt");
      // As a base indexed before the keyword index existed: its index object knows none of its texts.
      const stub = await withoutKeywordIndex(kb.id);
      expect(await stub.keywordStatus()).toEqual({ complete: false, documents: 0 });
      const during = await search(owner, kb.id, query);
      expect(during.results.map((r) => r.knowledgeBaseFile?.filename).slice(0, 2)).toEqual([
        "refunds.txt",
        "shipping.txt",
      ]);
      await vi.waitFor(async () => expect((await stub.keywordStatus()).complete).toBe(true), {
        timeout: 15_000,
        interval: 100,
      });
      expect((await stub.keywordStatus()).documents).toBe(ARTICLES.length);
      const after = await search(owner, kb.id, query);
      expect(after.results.map((r) => r.id)).toEqual(before.results.map((r) => r.id));
    },
  );

  it("a file deleted while the keyword index is filled from D1 is not put back in keyword search", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner, { sentenceWindowSize: 0 });
    const [refunds, shipping] = await ingest(owner, kb.id, ARTICLES.slice(0, 2));
    const stub = await withoutKeywordIndex(kb.id);
    // The rebuild has read its page of texts from D1 when the file's delete goes through (rows, then index entries);
    // only then does the page reach the index.
    let deleted = false;
    const racing = {
      async indexKeywords(documents: Parameters<typeof stub.indexKeywords>[0]) {
        if (!deleted) {
          deleted = true;
          expect((await owner.fetch("DELETE", `/knowledge-bases/${kb.id}/files/${shipping.id}/`)).status).toBe(204);
        }
        return stub.indexKeywords(documents);
      },
      removeKeywords: (ids: string[]) => stub.removeKeywords(ids),
      markKeywordsComplete: () => stub.markKeywordsComplete(),
    };
    const bindings = {
      ...env,
      VECTOR_INDEX: { idFromName: (name: string) => env.VECTOR_INDEX.idFromName(name), get: () => racing },
    } as unknown as Bindings;
    await rebuildKeywordIndex(bindings, db(), kb.id);
    expect(deleted).toBe(true);
    expect(await stub.keywordStatus()).toEqual({ complete: true, documents: 1 });
    const found = await search(owner, kb.id, { query: "Rotterdam warehouse shipping refund", searchMethod: "keyword" });
    expect(found.results.map((r) => r.knowledgeBaseFile?.id)).toEqual([refunds.id]);
  });

  it("Chinese text is found by keyword and by vector search", async () => {
    const owner = await seedOwner();
    const kb = await searchable(owner, { enableRerank: false });
    for (const searchMethod of ["keyword", "vector", "hybrid"]) {
      const page = await search(owner, kb.id, { query: "退货运费谁承担", searchMethod });
      expect(page.results[0]?.knowledgeBaseFile?.filename, searchMethod).toBe("退货.txt");
    }
    // Latin words written against Chinese text, without a space, are words of their own.
    for (const query of ["API密钥", "webhook回调怎么验证签名"]) {
      expect(
        (await search(owner, kb.id, { query, searchMethod: "keyword" })).results[0]?.knowledgeBaseFile?.filename,
        query,
      ).toBe("密钥.txt");
    }
    expect(
      (await search(owner, kb.id, { query: "api", searchMethod: "keyword" })).results[0].highlightedText,
    ).toContain("<mark>API</mark>");
    const keyword = await search(owner, kb.id, { query: "快递", searchMethod: "keyword" });
    expect(keyword.results.map((r) => r.knowledgeBaseFile?.filename)).toEqual(["配送.txt"]);
    expect(keyword.results[0].highlightedText).toContain("<mark>快递</mark>");
  });

  it("Korean words written with particles are found with the defaults (local reranker, cutoff 0)", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner, { sentenceWindowSize: 0 });
    await ingest(owner, kb.id, [
      { name: "refund.txt", content: "환불은 구매 후 30일 이내에 가능합니다. 환불금은 원래 카드로 돌려드립니다." },
      { name: "shipping.txt", content: "배송은 서울 창고에서 출발합니다. 택배는 다음 영업일에 도착합니다." },
    ]);
    // The index finds 환불 in 환불은 (refund + particle) by its pair; the reranker must score it above 0 too,
    // or the cutoff drops it and replies say they cannot answer.
    const query = "환불 기간";
    for (const body of [{ searchMethod: "keyword" }, { enableRerank: false }, {}]) {
      const page = await search(owner, kb.id, { query, ...body });
      expect(page.results[0]?.knowledgeBaseFile?.filename, JSON.stringify(body)).toBe("refund.txt");
    }
  });

  it(
    "English is found by keyword and by vector search; both match other word forms, vector search also " +
      "misspellings",
    async () => {
      const owner = await seedOwner();
      const kb = await searchable(owner, { enableRerank: false });
      expect(
        (await search(owner, kb.id, { query: "warehouse", searchMethod: "keyword" })).results[0].knowledgeBaseFile
          ?.filename,
      ).toBe("shipping.txt");
      // "authenticating" is not a word of any article: its stem ("authent", as "authentication") is.
      expect(
        (await search(owner, kb.id, { query: "authenticating", searchMethod: "keyword" })).results[0].knowledgeBaseFile
          ?.filename,
      ).toBe("security.txt");
      expect(
        (await search(owner, kb.id, { query: "authenticating", searchMethod: "vector" })).results[0].knowledgeBaseFile
          ?.filename,
      ).toBe("security.txt");
      // A misspelling has no stem in common: keyword search misses it, the vector's character 3-grams do not.
      expect((await search(owner, kb.id, { query: "authentcation", searchMethod: "keyword" })).count).toBe(0);
      expect(
        (await search(owner, kb.id, { query: "authentcation", searchMethod: "vector" })).results[0].knowledgeBaseFile
          ?.filename,
      ).toBe("security.txt");
    },
  );

  it("FAQs are searched beside the text", async () => {
    const owner = await seedOwner();
    const kb = await searchable(owner);
    await createFaq(owner, kb.id, {
      question: "Can I pay with PayPal?",
      answer: "Yes, PayPal is accepted at checkout.",
    });
    const page = await search(owner, kb.id, { query: "pay with paypal" });
    expect(page.results[0]).toMatchObject({
      type: "faq",
      knowledgeBaseFile: null,
      faq: { question: "Can I pay with PayPal?" },
    });
  });

  it("enableRerank in the body overrides the knowledge base's for one search; not a boolean is 400", async () => {
    const owner = await seedOwner();
    const kb = await searchable(owner, { enableRerank: true });
    const timing = async (body: Record<string, unknown>) => {
      const res = await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: "refund", ...body });
      expect(res.status).toBe(200);
      return res.headers.get("Server-Timing") ?? "";
    };
    expect(await timing({})).toMatch(/rerank;dur=/);
    expect(await timing({ enableRerank: false })).not.toMatch(/rerank;dur=/);
    await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { enableRerank: false });
    expect(await timing({})).not.toMatch(/rerank;dur=/);
    expect(await timing({ enableRerank: true })).toMatch(/rerank;dur=/);
    const body = await expectError(
      await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: "x", enableRerank: "yes" }),
      400,
      "invalid",
    );
    expect(body.errors?.enableRerank).toBeTruthy();
  });

  it("pages by the body's page and pageSize; the query string's win, so next works with the same body", async () => {
    const owner = await seedOwner();
    const kb = await searchable(owner);
    const body = { query: "refund shipping passwords warehouse 退货 发货", searchMethod: "keyword", pageSize: 2 };
    const all = await search(owner, kb.id, { ...body, pageSize: 100 });
    expect(all.count).toBeGreaterThan(3);
    const first = await search(owner, kb.id, body);
    expect(first.results.map((r) => r.text)).toEqual(all.results.slice(0, 2).map((r) => r.text));
    expect(first.next).toMatch(/[?&]page=2\b/);
    const second = await search(owner, kb.id, { ...body, page: 2 });
    expect(second.results.map((r) => r.text)).toEqual(all.results.slice(2, 4).map((r) => r.text));
    const followed = await owner.fetch("POST", first.next!.replace(/^https?:\/\/[^/]+\/api\/v1/, ""), body);
    const next = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/search/">(followed);
    expect(next.results.map((r) => r.text)).toEqual(second.results.map((r) => r.text));
    // `previous` of the body's page 2 names page 1: without it, the same body asked page 2 again.
    expect(second.previous).toMatch(/[?&]page=1\b/);
    const back = await owner.fetch("POST", second.previous!.replace(/^https?:\/\/[^/]+\/api\/v1/, ""), {
      ...body,
      page: 2,
    });
    const previous = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/search/">(back);
    expect(previous.results.map((r) => r.text)).toEqual(first.results.map((r) => r.text));
    // A page size out of range is clamped to 1..100, as in the query string.
    const clamped = await search(owner, kb.id, { ...body, pageSize: 101 });
    expect(clamped.results.map((r) => r.text)).toEqual(all.results.map((r) => r.text));
    expect((await search(owner, kb.id, { ...body, pageSize: 0 })).results).toHaveLength(1);
    for (const bad of [{ page: 0 }, { pageSize: "2" }]) {
      const refused = await expectError(
        await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { ...body, ...bad }),
        400,
        "invalid",
      );
      expect(Object.keys(refused.errors ?? {})).toEqual(Object.keys(bad));
    }
  });

  it("similarityCutoff drops weak results, numberOfRetrievedChunks caps them, the sentence window widens", async () => {
    const owner = await seedOwner();
    const kb = await searchable(owner, { numberOfRetrievedChunks: 2 });
    expect((await search(owner, kb.id, { query: "refund shipping passwords warehouse" })).count).toBeLessThanOrEqual(2);
    await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { similarityCutoff: 1, numberOfRetrievedChunks: 12 });
    expect((await search(owner, kb.id, { query: "refund" })).count).toBe(0);

    const windowed = await createKnowledgeBase(owner, { sentenceWindowSize: 1, enableRerank: false });
    const long =
      Array.from({ length: 30 }, (_, i) => `Sentence number ${i} talks about topic ${i * 7}.`).join(" ") +
      " The unicorn lives here. " +
      Array.from({ length: 30 }, (_, i) => `Closing remark ${i} is filler text.`).join(" ");
    await ingest(owner, windowed.id, [{ name: "long.txt", content: long }]);
    const hit = (await search(owner, windowed.id, { query: "unicorn", searchMethod: "keyword" })).results[0];
    expect(hit.text).toContain("The unicorn lives here.");
    await owner.fetch("PATCH", `/knowledge-bases/${windowed.id}/`, { sentenceWindowSize: 0 });
    const bare = (await search(owner, windowed.id, { query: "unicorn", searchMethod: "keyword" })).results[0];
    // One sentence more on each side: the last of the previous chunk and the first of the next.
    expect(hit.text.startsWith(bare.text)).toBe(false);
    expect(hit.text).toContain(bare.text);
    expect(hit.text.length).toBeGreaterThan(bare.text.length + 20);
  });

  it(
    "400 without a query, nothing else happens; 401; 404 another organization's; a member sees it only through " +
      "its groups",
    async () => {
      const owner = await seedOwner();
      const kb = await createKnowledgeBase(owner);
      const body = await expectError(
        await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, {}),
        400,
        "invalid",
      );
      expect(body.errors?.query).toBeTruthy();
      await expectError(
        await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: "x", searchMethod: "magic" }),
        400,
        "invalid",
      );
      await expectError(
        await call("POST", `/api/v1/knowledge-bases/${kb.id}/search/`, { query: "x" }),
        401,
        "not_authenticated",
      );
      const stranger = await seedOwner();
      await expectNotFound(await stranger.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: "x" }));
      await expectNotFound(await owner.fetch("POST", `/knowledge-bases/${NO_SUCH_ID}/search/`, { query: "x" }));
      const outsider = await seedMember(owner, ["knowledge_base.view"]);
      await expectNotFound(await outsider.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: "x" }));
      await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/`, { groups: [{ id: outsider.groupId }] });
      expect((await outsider.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: "x" })).status).toBe(200);
    },
  );

  it("a reranker answering 200 with an error body: 502 (upstream_error) with the provider's message", async () => {
    const owner = await seedOwner();
    const reranker = await upstreamModel(owner, {
      path: "/reranker-models/",
      modelName: `error-200-${crypto.randomUUID()}`,
    });
    const kb = await createKnowledgeBase(owner, { rerankerModel: reranker.id, enableRerank: true });
    await createFaq(owner, kb.id, { question: "How long does a refund take?", answer: "Fourteen days." });
    const body = await expectError(
      await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: "refund" }),
      502,
      "upstream_error",
    );
    expect(body.detail).toBe("The model provider failed: The provider is overloaded, try later.");
  });

  it("an embedding provider that fails is the documented 502 (upstream_error), not a 500", async () => {
    const owner = await seedOwner();
    const embedder = await upstreamModel(owner, {
      path: "/embedding-models/",
      modelName: `fail-500x99-${crypto.randomUUID()}`,
      dimensions: 8,
    });
    const kb = await createKnowledgeBase(owner, { embeddingModel: embedder.id });
    await expectError(
      await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, { query: "refund" }),
      502,
      "upstream_error",
    );
  });
});
