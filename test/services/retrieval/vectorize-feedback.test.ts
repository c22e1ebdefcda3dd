import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { bindingsWith, type Settings } from "../../harness";
import { standIn } from "../../support/bindings";
import { getDb } from "../../../src/db";
import type { KnowledgeBaseRow } from "../../../src/services/knowledge/knowledge-bases";
import { searchKnowledge } from "../../../src/services/knowledge/retrieval/search";
import { meanDirection, steered } from "../../../src/services/knowledge/retrieval/feedback";
import { vectorizeStandIn } from "../../support/vectorize-stand-in";
import { LOCAL_EMBEDDING } from "../../fixtures/chatbots";

describe("hybrid search with Vectorize", () => {
  it("steers the vector sent to Vectorize towards the keyword leg's best passages, as the local store", async () => {
    const kbId = crypto.randomUUID();
    const index = env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(kbId));
    await index.markKeywordsComplete();
    await index.indexKeywords([{ id: "a", type: "text_node", sourceId: "f1", length: 4, terms: [["refund", 1]] }]);
    const unit = (i: number) => Array.from({ length: 256 }, (_, j) => (j === i ? 1 : 0));
    const vectorize = vectorizeStandIn();
    await vectorize.upsert(
      ["a", "b", "c"].map((id, i) => ({
        id,
        values: unit(i),
        namespace: kbId,
        metadata: { type: "text_node", sourceId: `f${i + 1}` },
      })),
    );
    const kb: KnowledgeBaseRow = {
      id: kbId,
      organizationId: "org-1",
      createdById: "user-1",
      name: "Vectorize",
      description: "",
      rerankerModelId: "00000000-0000-7000-8000-000000000003",
      vectorDatabaseType: null,
      vectorDatabaseUrl: null,
      vectorDatabaseCredentialsSealed: null,
      createdAt: Date.now(),
      updatedAt: Date.now(),
      embeddingModelId: LOCAL_EMBEDDING,
      numberOfRetrievedChunks: 5,
      enableHyde: false,
      enableRrf: true,
      enableRerank: false,
      similarityCutoff: 0,
      sentenceWindowSize: 0,
    };
    const search = (settings: Settings) =>
      searchKnowledge(bindingsWith({ VECTORIZE: standIn("VECTORIZE", vectorize), ...settings }), getDb(env.DB), [kb], {
        query: "refund",
        limit: 5,
      });

    await search({});
    const [plain] = (await index.embed(["refund"])).vectors;
    expect(vectorize.queries[0]).toEqual(steered(plain, meanDirection([unit(0)])));
    expect(vectorize.queries[0]).not.toEqual(plain);
    // Turned off, the query goes as embedded.
    await search({ RETRIEVAL_FEEDBACK_PASSAGES: "0" });
    expect(vectorize.queries[1]).toEqual(plain);
  });
});
