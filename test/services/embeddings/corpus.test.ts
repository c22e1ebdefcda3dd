import { env } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  embedWithModel,
  MIN_TRAINING_CHUNKS,
  trainCorpusModel,
} from "../../../src/services/knowledge/embeddings/corpus";
import { embedText } from "../../../src/services/knowledge/embeddings/local";
import { prng } from "../../../src/lib/random";
import { truncatedSvd } from "../../../src/services/knowledge/embeddings/svd";
import { knowledgeBaseEmbeddingModel } from "../../../src/services/knowledge/embeddings/knowledge-base";

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
const stubOf = (kb: string) => env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(kb));

/**
 * Texts on forty topics, six words each from the topic's fifteen (a seeded draw): more terms (600)
 * than the model keeps dimensions (128), so it has to group them.
 */
function corpus(n = 1200): string[] {
  const rand = prng(7);
  const word = (topic: number, j: number) => (topic === 0 && j === 0 ? "automobile" : `t${topic}w${j}`);
  return Array.from({ length: n }, (_, i) => {
    const topic = i % 40;
    const words = new Set<string>();
    while (words.size < 6) words.add(word(topic, Math.floor(rand() * 15)));
    return [...words].join(" ");
  });
}

describe("truncated SVD", () => {
  it("recovers the singular values of a small matrix, deterministically", () => {
    // Columns (documents) of a 3 x 3 diagonal matrix with values 3, 2, 1.
    const columns = [0, 1, 2].map((i) => ({ index: Int32Array.of(i), value: Float64Array.of(3 - i) }));
    const a = truncatedSvd({ rows: 3, columns }, 2);
    expect(a.k).toBe(2);
    expect(a.sigma[0]).toBeCloseTo(3, 6);
    expect(a.sigma[1]).toBeCloseTo(2, 6);
    expect(Math.abs(a.u[0 * 2 + 0])).toBeCloseTo(1, 6);
    expect(truncatedSvd({ rows: 3, columns }, 2).u).toEqual(a.u);
  });
});

describe("corpus-trained embedding", () => {
  it("is deterministic and gives unit vectors of 256 dimensions", () => {
    const model = trainCorpusModel(corpus())!;
    expect(model).not.toBeNull();
    expect(trainCorpusModel(corpus())).toEqual(model);
    const v = embedWithModel(model, "engine repair");
    expect(v).toHaveLength(256);
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(embedWithModel(model, "engine repair")).toEqual(v);
  });

  it("relates words by the company they keep: 'automobile' finds a passage on its topic without it", () => {
    const model = trainCorpusModel(corpus())!;
    const query = embedWithModel(model, "automobile");
    const sameTopic = embedWithModel(model, "t0w5 t0w9 t0w12 t0w3");
    const otherTopic = embedWithModel(model, "t1w5 t1w9 t1w12 t1w3");
    expect(dot(query, sameTopic)).toBeGreaterThan(0.15);
    expect(dot(query, sameTopic)).toBeGreaterThan(dot(query, otherTopic) + 0.15);
    // The hashing embedding alone sees nothing shared.
    expect(Math.abs(dot(embedText("automobile"), embedText("t0w5 t0w9 t0w12 t0w3")))).toBeLessThan(0.2);
  });

  it("without a model, or for too little text, is the hashing embedding", () => {
    expect(embedWithModel(null, "car engine")).toEqual(embedText("car engine"));
    expect(trainCorpusModel(["one text"])).toBeNull();
  });
});

describe("knowledge base embedding (VectorIndex Durable Object)", () => {
  it(
    "starts untrained (version 0, hashing), trains once the base is big enough and again when it has grown by " +
      "half",
    async () => {
      const kb = crypto.randomUUID();
      const stub = stubOf(kb);
      const model = knowledgeBaseEmbeddingModel(env, kb);
      const [before] = await model.embed(["automobile"]);
      expect(before).toEqual(embedText("automobile"));
      expect([...model.versions]).toEqual([0]);

      expect(await stub.claimTraining(MIN_TRAINING_CHUNKS - 1)).toBe(false);
      const size = MIN_TRAINING_CHUNKS;
      expect(await stub.claimTraining(size)).toBe(true);
      expect(await stub.claimTraining(size)).toBe(false); // another caller holds the training
      expect(await stub.train(corpus(80), size)).toBe(1);
      expect(await stub.embeddingVersion()).toEqual({ version: 1, trainedOn: size });

      const [after] = await model.embed(["automobile"]);
      expect(after).not.toEqual(before);
      expect(after).toEqual(embedWithModel(trainCorpusModel(corpus(80)), "automobile"));
      expect(model.versions).toEqual(new Set([0, 1]));

      // Not due again until the base has grown by half; then the new texts change the model.
      expect(await stub.claimTraining(1.5 * size - 1)).toBe(false);
      expect(await stub.claimTraining(1.5 * size)).toBe(true);
      const more = [...corpus(80), ...Array.from({ length: 80 }, (_, i) => `automobile dealer showroom price${i}`)];
      expect(await stub.train(more, 1.5 * size)).toBe(2);
      expect((await model.embed(["automobile"]))[0]).not.toEqual(after);
    },
  );

  it("keeps its model across a restart of the object", async () => {
    const kb = crypto.randomUUID();
    const stub = stubOf(kb);
    await stub.train(corpus(80), 80);
    const [v] = (await stub.embed(["car engine"])).vectors;
    await evictDurableObject(stub);
    const again = await stubOf(kb).embed(["car engine"]);
    expect(again).toEqual({ version: 1, vectors: [v] });
  });
});
