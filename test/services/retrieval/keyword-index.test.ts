import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  KeywordIndex,
  type KeywordDocument,
  type WeightedTerm,
} from "../../../src/services/knowledge/retrieval/keyword-index";
import { keywordTerms } from "../../../src/services/knowledge/retrieval/terms";
import { prng } from "../../../src/lib/random";

/** Documents of words drawn with a skewed distribution (a few very common words, many rare ones). */
function corpus(seed: number, count: number, vocabulary = 300) {
  const rand = prng(seed);
  const word = () => `w${Math.floor(vocabulary * rand() ** 3)}`;
  return Array.from({ length: count }, (_, i) => {
    const words = Array.from({ length: 5 + Math.floor(rand() * 60) }, word);
    const counts = new Map<string, number>();
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    return {
      id: `d${i}`,
      type: "text_node" as const,
      sourceId: `s${i % 7}`,
      length: words.length,
      terms: [...counts],
    } satisfies KeywordDocument;
  });
}

/** BM25 over every live document, written independently of the index: the reference. */
function exhaustive(
  docs: KeywordDocument[],
  query: WeightedTerm[],
  k: number,
  accept: (source: string) => boolean = () => true,
) {
  const n = docs.length;
  const avg = docs.reduce((s, d) => s + d.length, 0) / n;
  const counts = new Map<string, number>();
  for (const d of docs) for (const [t] of d.terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  const df = (t: string) => counts.get(t) ?? 0;
  const scored = docs.map((d, slot) => {
    let score = 0;
    for (const { term, weight } of query) {
      const tf = d.terms.find(([x]) => x === term)?.[1] ?? 0;
      if (!tf) continue;
      const m = df(term);
      const idf = Math.max(1e-6, Math.log((n - m + 0.5) / (m + 0.5)));
      score += (weight * idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.length) / avg));
    }
    return { id: d.id, score, slot, source: d.sourceId };
  });
  return scored
    .filter((s) => s.score > 0 && accept(s.source))
    .sort((a, b) => b.score - a.score || a.slot - b.slot)
    .slice(0, k);
}

/**
 * The same ranking as the reference: the same scores rank by rank, and the same documents, except
 * where two scores are equal (sums taken in another order may differ in the last bit, and swap ties).
 */
function expectSameRanking(got: { id: string; score: number }[], want: { id: string; score: number }[]) {
  expect(got.length).toBe(want.length);
  got.forEach((m, i) => {
    expect(m.score).toBeCloseTo(want[i].score, 9);
  });
  const tied = (score: number) => want.filter((w) => Math.abs(w.score - score) < 1e-9).map((w) => w.id);
  got.forEach((m, i) => {
    if (m.id !== want[i].id)
      expect(tied(m.score).length > 1 || Math.abs(m.score - want.at(-1)!.score) < 1e-9).toBe(true);
  });
  const strict = (list: { id: string; score: number }[]) =>
    list
      .filter((x) => x.score > want.at(-1)!.score + 1e-9)
      .map((x) => x.id)
      .sort();
  expect(strict(got)).toEqual(strict(want));
}

/** Runs `f` with a keyword index in the storage of a new, empty index object. */
/** Runs `f` on a keyword index in a fresh Durable Object's storage, `sql` (the index's own) to look underneath. */
const inIndex = <T>(f: (index: KeywordIndex, sql: SqlStorage) => T | Promise<T>) =>
  runInDurableObject(env.VECTOR_INDEX.get(env.VECTOR_INDEX.newUniqueId()), (_instance, state) =>
    f(new KeywordIndex(state.storage.sql), state.storage.sql),
  );

describe("KeywordIndex (BM25 with MaxScore, in a Durable Object's storage)", () => {
  it("returns exactly the exhaustive BM25 top k, for skewed corpora, every k and mixed query weights", () =>
    inIndex((index) => {
      const rand = prng(99);
      for (const seed of [1, 2, 3]) {
        const docs = corpus(seed, 400);
        index.clear();
        index.add(docs);
        for (let q = 0; q < 60; q++) {
          const query = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => ({
            term: `w${Math.floor(300 * rand() ** 2)}`,
            weight: 1 + Math.floor(rand() * 3),
          }));
          const unique = [...new Map(query.map((t) => [t.term, t])).values()];
          for (const k of [1, 5, 30]) {
            const got = index.search(unique, k);
            const want = exhaustive(docs, unique, k);
            expectSameRanking(got, want);
          }
        }
      }
    }));

  it("forgets removed documents (their terms' counts too) and ranks a re-added one anew", () =>
    inIndex((index) => {
      const docs = corpus(5, 200);
      index.add(docs);
      const removed = docs.filter((_, i) => i % 3 === 0);
      index.remove([...removed.map((d) => d.id), "unknown"]);
      const kept = docs.filter((_, i) => i % 3 !== 0);
      expect(index.count()).toBe(kept.length);
      const query = [
        { term: "w0", weight: 1 },
        { term: "w40", weight: 2 },
        { term: "w150", weight: 1 },
      ];
      expectSameRanking(index.search(query, 20), exhaustive(kept, query, 20));
      // Added again, a document comes last in insertion order: the reference sees it there too.
      index.add([removed[0]]);
      const now = [...kept, removed[0]];
      expectSameRanking(index.search(query, 20), exhaustive(now, query, 20));
      // Added once more, it replaces itself (and moves to the end again).
      index.add([removed[0]]);
      expect(index.count()).toBe(now.length);
      expectSameRanking(index.search(query, 20), exhaustive(now, query, 20));
    }));

  it("keeps only accepted sources, and still finds k of them below rejected ones", () =>
    inIndex((index) => {
      const docs = corpus(8, 300);
      index.add(docs);
      const query = [
        { term: "w1", weight: 1 },
        { term: "w20", weight: 1 },
      ];
      const accept = (s: string) => s === "s3";
      const got = index.search(query, 10, accept);
      expect(got.length).toBe(10);
      expect(got.every((m) => m.sourceId === "s3")).toBe(true);
      expectSameRanking(got, exhaustive(docs, query, 10, accept));
    }));

  it("scores like SQLite FTS5's bm25() over the same rows", async () => {
    const texts = [
      "Refunds are paid within five days of the return arriving at our warehouse.",
      "You can return an item within thirty days. Returns of opened items need a receipt.",
      "Shipping is free above fifty euros; express shipping costs extra.",
      "Our warehouse ships orders every day, including weekends and holidays, refunds excepted.",
      "退货后五天内退款到账。",
    ];
    const docs = texts.map((text, i) => ({
      id: `t${i}`,
      type: "text_node" as const,
      sourceId: "f",
      ...keywordTerms(text),
    }));
    // The same terms in FTS5 rows: stopwords included (they count towards a row's length).
    const rows = docs.map((d) =>
      d.terms
        .flatMap(([t, c]) => Array(c).fill(t))
        .concat(Array(d.length - d.terms.reduce((s, [, c]) => s + c, 0)).fill("zzstop"))
        .join(" "),
    );
    await env.DB.exec("CREATE VIRTUAL TABLE IF NOT EXISTS keyword_index_check USING fts5(terms)");
    try {
      await env.DB.prepare("DELETE FROM keyword_index_check").run();
      for (const [i, row] of rows.entries())
        await env.DB.prepare("INSERT INTO keyword_index_check (rowid, terms) VALUES (?, ?)")
          .bind(i + 1, row)
          .run();
      for (const query of [["refund"], ["return", "warehous"], ["ship", "refund", "day"], ["退款"]]) {
        const { results } = await env.DB.prepare(
          "SELECT rowid, -bm25(keyword_index_check) AS score FROM keyword_index_check WHERE " +
            "keyword_index_check MATCH ? ORDER BY score DESC",
        )
          .bind(query.map((t) => `"${t}"`).join(" OR "))
          .all<{ rowid: number; score: number }>();
        const got = await inIndex((index) => {
          index.add(docs);
          return index.search(
            query.map((term) => ({ term, weight: 1 })),
            10,
          );
        });
        expect(got.map((m) => m.id)).toEqual(results.map((r) => `t${r.rowid - 1}`));
        got.forEach((m, i) => {
          expect(m.score).toBeCloseTo(results[i].score, 6);
        });
      }
    } finally {
      await env.DB.exec("DROP TABLE IF EXISTS keyword_index_check");
    }
  });

  it(
    "keeps long gaps between documents and large term counts exact in its compressed lists",
    () =>
      inIndex((index) => {
        const docs: KeywordDocument[] = Array.from({ length: 70_000 }, (_, i) => ({
          id: `d${i}`,
          type: "text_node",
          sourceId: "s",
          length: 10,
          terms: [
            ["common", 1 + (i % 3)],
            ...(i === 0 || i === 20_000 || i === 69_999
              ? ([["rare", i === 20_000 ? 400 : 2]] as [string, number][])
              : []),
          ],
        }));
        index.add(docs);
        const query = [{ term: "rare", weight: 1 }];
        // A count over 255 is kept as 255: BM25 has long saturated.
        const capped = docs.map((d) => ({
          ...d,
          terms: d.terms.map(([t, c]) => [t, Math.min(c, 255)] as [string, number]),
        }));
        expectSameRanking(index.search(query, 5), exhaustive(capped, query, 5));
        expect(index.search(query, 5).map((m) => m.id)).toEqual(["d20000", "d0", "d69999"]);
        expectSameRanking(
          index.search([{ term: "common", weight: 1 }], 3),
          exhaustive(capped, [{ term: "common", weight: 1 }], 3),
        );
      }),
    60_000,
  );

  it(
    "rewrites its posting lists without the holes of removed documents once they pile up, and ranks as before",
    () =>
      inIndex((index, sql) => {
        const docs = corpus(12, 3000);
        index.add(docs);
        const bytes = () => sql.exec<{ n: number }>("SELECT SUM(length(data)) AS n FROM keyword_blocks").one().n;
        const full = bytes();
        index.remove(docs.filter((_, i) => i % 2 === 0).map((d) => d.id));
        const kept = docs.filter((_, i) => i % 2 === 1);
        expect(index.holes()).toBe(1500);
        expect(index.needsCompaction()).toBe(true);
        const query = [
          { term: "w2", weight: 1 },
          { term: "w70", weight: 1 },
          { term: "w200", weight: 2 },
        ];
        const before = index.search(query, 25);
        index.compact();
        expect(index.holes()).toBe(0);
        expect(index.needsCompaction()).toBe(false);
        expect(bytes()).toBeLessThan(0.6 * full);
        expect(index.search(query, 25)).toEqual(before);
        expectSameRanking(before, exhaustive(kept, query, 25));
        // Appends after a rewrite continue the lists.
        index.add([docs[0]]);
        expectSameRanking(index.search(query, 25), exhaustive([...kept, docs[0]], query, 25));
      }),
    60_000,
  );
});
