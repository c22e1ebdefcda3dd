import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LIST_MIN_VECTORS, type VectorIndex } from "../../../durable-objects/vector-index";
import { prng } from "../../../src/lib/random";
import { vectorStoreFor } from "../../../src/services/knowledge/vector-store";
import { UPSERT_CHUNK } from "../../../src/services/knowledge/vector-store/local";
import type { VectorRecord } from "../../../src/services/knowledge/vector-store/types";

const store = vectorStoreFor(env);
const kb = () => crypto.randomUUID();
const stubOf = (knowledgeBaseId: string) => env.VECTOR_INDEX.get(env.VECTOR_INDEX.idFromName(knowledgeBaseId));
/** A unit vector along `axis` tilted by `tilt` towards axis 1, in 4 dimensions. */
const axis = (a: number, tilt = 0) => Array.from({ length: 4 }, (_, i) => (i === a ? 1 : 0) + (i === 1 ? tilt : 0));
const rec = (
  id: string,
  values: number[],
  sourceId = "file-1",
  type: VectorRecord["type"] = "text_node",
): VectorRecord => ({ id, values, type, sourceId });
/** Numbers in [-0.5, 0.5) from the project's seeded generator: the same vectors on every run. */
const seededNoise = (seed: number) => {
  const next = prng(seed);
  return () => next() - 0.5;
};
/** The cosine of two vectors: the score an exact search gives. */
const cosine = (a: number[], b: number[]) =>
  a.reduce((s, x, i) => s + x * b[i], 0) / (Math.hypot(...a) * Math.hypot(...b));

describe("local vector store (VectorIndex Durable Object)", () => {
  it("is the store when VECTORIZE is not bound", () => {
    expect(env.VECTORIZE).toBeUndefined();
  });

  it("returns the nearest vectors best first, with cosine scores, type and source", async () => {
    const id = kb();
    await store.upsert(id, [
      rec("a", axis(0)),
      rec("b", axis(0, 0.5), "file-2"),
      rec("c", axis(2)),
      rec("f", axis(0, 2), "faq-1", "faq"),
    ]);
    const matches = await store.query(id, [2, 0, 0, 0], { topK: 3 });
    expect(matches.map((m) => m.id)).toEqual(["a", "b", "f"]);
    expect(matches[0]).toEqual({ id: "a", score: expect.closeTo(1, 2), type: "text_node", sourceId: "file-1" });
    expect(matches[1].score).toBeCloseTo(1 / Math.hypot(1, 0.5), 2);
    expect(matches[2]).toMatchObject({
      type: "faq",
      sourceId: "faq-1",
      score: expect.closeTo(1 / Math.hypot(1, 2), 2),
    });
    const opposite = await store.query(id, [-1, 0, 0, 0], { topK: 10 });
    expect(opposite.at(-1)).toMatchObject({ id: "a", score: expect.closeTo(-1, 2) });
    expect(await store.query(kb(), [1, 0, 0, 0], { topK: 5 })).toEqual([]);
  });

  it("keeps exactly the best topK of many (the heap agrees with a full ranking), scores near the cosine", async () => {
    const id = kb();
    const rnd = seededNoise(7);
    // 30 dimensions: not a multiple of 4, so the padded stride is exercised too.
    const vectors = Array.from({ length: 301 }, (_, i) => rec(`v${i}`, Array.from({ length: 30 }, rnd), `s${i % 4}`));
    await store.upsert(id, vectors);
    const q = Array.from({ length: 30 }, rnd);
    const all = await store.query(id, q, { topK: 1000 });
    expect(all).toHaveLength(301);
    expect(all.every((m, i) => i === 0 || all[i - 1].score >= m.score)).toBe(true);
    expect(await store.query(id, q, { topK: 7 })).toEqual(all.slice(0, 7));
    for (const m of all)
      expect(Math.abs(m.score - cosine(q, vectors[Number(m.id.slice(1))].values))).toBeLessThan(0.02);
    const filtered = await store.query(id, q, { topK: 5, filter: { sourceIds: { notIn: ["s0", "s1"] } } });
    expect(filtered).toEqual(all.filter((m) => m.sourceId === "s2" || m.sourceId === "s3").slice(0, 5));
  });

  it("scores a sparse query (few non-zero dimensions, read on those only) exactly as a dense one would", async () => {
    const id = kb();
    const rnd = seededNoise(11);
    const vectors = Array.from({ length: 200 }, (_, i) => rec(`v${i}`, Array.from({ length: 64 }, rnd), `s${i % 3}`));
    await store.upsert(id, vectors);
    // 5 of 64 dimensions set: the sparse path.
    const q = Array.from({ length: 64 }, (_, i) => ([3, 17, 30, 41, 60].includes(i) ? rnd() : 0));
    const got = await store.query(id, q, { topK: 200 });
    const exact = vectors.map((v) => ({ id: v.id, score: cosine(q, v.values) })).sort((a, b) => b.score - a.score);
    // int8 storage may swap near ties, never more.
    const exactTop = new Set(exact.slice(0, 12).map((m) => m.id));
    for (const m of got.slice(0, 10)) expect(exactTop.has(m.id)).toBe(true);
    for (const m of got) expect(Math.abs(m.score - exact.find((e) => e.id === m.id)!.score)).toBeLessThan(0.03);
    const filtered = await store.query(id, q, { topK: 5, filter: { sourceIds: { in: ["s1"] } } });
    expect(filtered).toEqual(got.filter((m) => m.sourceId === "s1").slice(0, 5));
  });

  it("filters by source ids: in, notIn, both, and an empty `in` matches nothing", async () => {
    const id = kb();
    await store.upsert(id, [rec("a", axis(0), "s1"), rec("b", axis(0, 0.1), "s2"), rec("c", axis(0, 0.2), "s3")]);
    const ids = async (filter: { in?: string[]; notIn?: string[] }) =>
      (await store.query(id, axis(0), { topK: 10, filter: { sourceIds: filter } })).map((m) => m.id);
    expect(await ids({ in: ["s2", "s3"] })).toEqual(["b", "c"]);
    expect(await ids({ notIn: ["s1"] })).toEqual(["b", "c"]);
    expect(await ids({ in: ["s1", "s2"], notIn: ["s1"] })).toEqual(["b"]);
    expect(await ids({ in: [] })).toEqual([]);
    expect(await ids({ notIn: [] })).toEqual(["a", "b", "c"]);
  });

  it("replaces a vector upserted again, deletes by id (unknown ids are ignored) and counts", async () => {
    const id = kb();
    await store.upsert(id, [rec("a", axis(0)), rec("b", axis(1)), rec("c", axis(2)), rec("d", axis(3))]);
    await store.upsert(id, [rec("a", axis(3), "file-9")]);
    expect(await store.count(id)).toBe(4);
    expect((await store.query(id, axis(3), { topK: 2 })).map((m) => [m.id, m.sourceId])).toEqual([
      ["a", "file-9"],
      ["d", "file-1"],
    ]);
    // Deleting "a" moves the last slot ("d") into its place; both must stay consistent.
    await store.deleteByIds(id, ["a", "nope"]);
    expect(await store.count(id)).toBe(3);
    expect((await store.query(id, axis(3), { topK: 1 }))[0].id).toBe("d");
    await store.deleteByIds(id, ["d", "b"]);
    expect((await store.query(id, axis(2), { topK: 5 })).map((m) => m.id)).toEqual(["c"]);
    expect(await store.count(id)).toBe(1);
  });

  it("keeps every vector after the object is evicted and its in-memory copy is gone", async () => {
    const id = kb();
    const many = Array.from({ length: UPSERT_CHUNK + 50 }, (_, i) =>
      rec(`v${i}`, [Math.cos(i / 100), Math.sin(i / 100), 0.1, i % 3], `s${i % 5}`),
    );
    await store.upsert(id, many);
    await store.deleteByIds(id, ["v0"]);
    const before = await store.query(id, many[700].values, { topK: 5 });
    expect(before[0].id).toBe("v700");

    const stub = stubOf(id);
    await evictDurableObject(stub);
    // biome-ignore lint/complexity/useLiteralKeys: private state, which TypeScript lets a test read only so
    expect(await runInDurableObject(stub, (instance: VectorIndex) => instance["memory"])).toBeNull();
    expect(await store.count(id)).toBe(UPSERT_CHUNK + 49);
    expect(await store.query(id, many[700].values, { topK: 5 })).toEqual(before);
  });

  it("clear() empties the index, after which vectors of another size are accepted", async () => {
    const id = kb();
    await store.upsert(id, [rec("a", axis(0))]);
    await expect(store.upsert(id, [rec("b", [1, 0])])).rejects.toThrow(/4 dimensions, not 2/);
    await expect(store.query(id, [1, 0], { topK: 1 })).rejects.toThrow(/4 dimensions/);
    await stubOf(id).clear();
    expect(await store.count(id)).toBe(0);
    await store.upsert(id, [rec("b", [1, 0])]);
    expect((await store.query(id, [1, 0], { topK: 1 }))[0]).toMatchObject({ id: "b", score: expect.closeTo(1, 2) });
  });

  it("a large base is searched through k-means lists once built: near the exact answer, new vectors included, " +
    "exact again after a removal", async () => {
    const id = kb();
    const stub = stubOf(id);
    const rnd = seededNoise(11);
    // Vectors around 200 topics in 32 dimensions, as passages about a base's topics are.
    const dims = 32;
    const topics = Array.from({ length: 200 }, () => Array.from({ length: dims }, rnd));
    const near = (t: number) => topics[t].map((x) => x + 0.25 * rnd());
    const vectors = Array.from({ length: LIST_MIN_VECTORS }, (_, i) => rec(`v${i}`, near(i % 200), `s${i % 5}`));
    for (let i = 0; i < vectors.length; i += UPSERT_CHUNK) await stub.upsert(vectors.slice(i, i + UPSERT_CHUNK));
    const queries = Array.from({ length: 40 }, (_, i) => near((i * 37) % 200));
    const exact = await Promise.all(queries.map((q) => stub.query(q, { topK: 20 })));
    // The lists are built by the alarm the writes scheduled; run it now rather than wait for it.
    const lists = () =>
      // biome-ignore lint/complexity/useLiteralKeys: private members, read as above
      runInDurableObject(stub, (instance: VectorIndex) => instance["memory"]?.["lists"]?.count ?? 0);
    expect(await lists()).toBe(0);
    await runInDurableObject(stub, (instance: VectorIndex) => instance.alarm());
    expect(await lists()).toBe(Math.round(Math.sqrt(LIST_MIN_VECTORS) / 2));
    const probed = await Promise.all(queries.map((q) => stub.query(q, { topK: 20 })));
    let found = 0;
    probed.forEach((p, i) => {
      found += p.filter((m) => exact[i].some((e) => e.id === m.id)).length;
    });
    expect(found / (20 * queries.length)).toBeGreaterThan(0.9);
    // Scores stay the exact cosines of what is stored.
    expect(probed[0][0].score).toBeCloseTo(exact[0].find((e) => e.id === probed[0][0].id)?.score ?? -2, 6);
    // A vector added after the build is found at once, and the filter still applies.
    await stub.upsert([
      rec(
        "new",
        queries[0].map((x) => x * 3),
        "s-new",
      ),
    ]);
    expect((await stub.query(queries[0], { topK: 1 }))[0].id).toBe("new");
    expect(
      (await stub.query(queries[0], { topK: 5, filter: { sourceIds: { in: ["s1"] } } })).every(
        (m) => m.sourceId === "s1",
      ),
    ).toBe(true);
    // A removal moves slots: the lists are dropped and every vector is scanned again until the next build.
    await stub.deleteByIds(["v0"]);
    expect(await lists()).toBe(0);
    const afterRemoval = await stub.query(queries[5], { topK: 20 });
    expect(afterRemoval.slice(0, 19).map((m) => m.id)).toEqual(
      exact[5]
        .filter((m) => m.id !== "v0")
        .slice(0, 19)
        .map((m) => m.id),
    );
  }, 120_000);

  it("a hybrid search's vector leg is steered towards the keyword leg's best passages, in one call", async () => {
    const stub = stubOf(kb());
    await stub.markKeywordsComplete();
    await stub.indexKeywords([{ id: "a", type: "text_node", sourceId: "f", length: 3, terms: [["refund", 1]] }]);
    await stub.upsert([rec("a", [1, 0, 0, 0]), rec("b", [0.6, 0, 0.8, 0]), rec("c", [0, 0, 0.7, 0.7])]);
    const q = [0, 0, 1, 0.3];
    // Alone, the query vector is nearest c; the keyword leg's best passage (a) pulls b above it.
    expect((await stub.query(q, { topK: 3 })).map((m) => m.id)).toEqual(["c", "b", "a"]);
    const both = await stub.search({
      keyword: { terms: [{ term: "refund", weight: 1 }], topK: 5 },
      vector: { topK: 3, values: q },
    });
    expect(both.keyword?.map((m) => m.id)).toEqual(["a"]);
    expect(both.vector.map((m) => m.id)).toEqual(["b", "c", "a"]);
    // Without a keyword leg, nothing steers it.
    expect((await stub.search({ vector: { topK: 3, values: q } })).vector.map((m) => m.id)).toEqual(["c", "b", "a"]);
  });

  it(
    "keyword documents are replaced by id and removed, whether or not the index is in memory, and survive " +
      "eviction",
    async () => {
      const stub = stubOf(kb());
      await stub.markKeywordsComplete();
      const doc = (id: string, term: string) => ({
        id,
        type: "faq" as const,
        sourceId: id,
        length: 4,
        terms: [[term, 2]] as [string, number][],
      });
      const find = async (term: string) =>
        (await stub.search({ keyword: { terms: [{ term, weight: 1 }], topK: 5 } })).keyword?.map((m) => m.id);
      await stub.indexKeywords([doc("q1", "refund"), doc("q2", "ship")]);
      expect(await find("refund")).toEqual(["q1"]);
      // Loaded: the old terms leave with the replaced document.
      await stub.indexKeywords([doc("q1", "parcel")]);
      expect(await find("refund")).toEqual([]);
      expect(await find("parcel")).toEqual(["q1"]);
      // Not loaded (a new instance): stored, and found once the next search loads the index.
      await evictDurableObject(stub);
      await stub.indexKeywords([doc("q1", "invoice")]);
      expect(await find("parcel")).toEqual([]);
      expect(await find("invoice")).toEqual(["q1"]);
      await stub.removeKeywords(["q1", "unknown"]);
      expect(await find("invoice")).toEqual([]);
      expect(await stub.keywordStatus()).toEqual({ complete: true, documents: 1 });
    },
  );
});
