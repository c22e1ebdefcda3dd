import { describe, expect, it } from "vitest";
import {
  highlight,
  indexedTerms,
  matchExpression,
  queryTerms,
  searchTerms,
  searchWordTerms,
} from "../../../src/services/knowledge/retrieval/terms";

describe("keyword terms", () => {
  it(
    "a Chinese question keeps its meaningful characters and pairs, and drops function characters and question " +
      "words",
    () => {
      const terms = queryTerms("请问怎么申请退货？");
      expect(terms).toEqual(expect.arrayContaining(["退货", "申请", "退", "货", "么申"]));
      for (const stop of ["请问", "怎么", "请", "问", "怎", "么"]) expect(terms).not.toContain(stop);
    },
  );

  it("English stopwords are dropped from queries, and words are lower-cased", () => {
    expect(queryTerms("How do I reset the API key?")).toEqual(["reset", "api", "key"]);
  });

  it("the index keeps every term, stopwords included, prefixed with its knowledge base", () => {
    const kb = "01900000-0000-7000-8000-0000000000ab";
    expect(indexedTerms("请问 the", kb).split(" ")).toEqual([
      "k0000000000ab请",
      "k0000000000ab请问",
      "k0000000000ab问",
      "k0000000000abthe",
    ]);
  });
});

describe("stemmed keyword terms", () => {
  const kb = "01900000-0000-7000-8000-0000000000ab";
  const p = "k0000000000ab";

  it("the index stems English words (Porter), so a word's other forms share one posting list", () => {
    expect(indexedTerms("Retrieving retrieval systems", kb).split(" ")).toEqual([
      `${p}retriev`,
      `${p}retriev`,
      `${p}system`,
    ]);
  });

  it(
    "a query term counts as often as the question says it (at most 3), and the unstemmed word follows for older " +
      "indexes",
    () => {
      const phrases = matchExpression(
        "Titles of articles: how are titles and article titles and more titles chosen?",
        kb,
      )!.split(" OR ");
      expect(phrases.filter((t) => t === `"${p}titl"`)).toHaveLength(3);
      expect(phrases.filter((t) => t === `"${p}articl"`)).toHaveLength(2);
      expect(phrases).toContain(`"${p}titles"`);
      expect(phrases).toContain(`"${p}articles"`);
      expect(phrases).not.toContain(`"${p}how"`);
      expect(matchExpression("how are the", kb)).toBeNull();
    },
  );

  it("highlights the other forms of a query word too", () => {
    expect(highlight("Retrieval of documents", "retrieving a document")).toBe(
      "<mark>Retrieval</mark> of <mark>documents</mark>",
    );
  });

  it("conversation search terms: distinct, unstemmed, no stopwords or single characters, CJK by pairs", () => {
    expect(searchTerms("The Deliveries, the DELIVERIES and a parcel: 退货退货 x ｆｕｌｌ")).toEqual([
      "deliveries",
      "parcel",
      "退货",
      "货退",
      "full",
    ]);
    expect(searchTerms("a".repeat(100))).toEqual(["a".repeat(64)]);
    expect(searchWordTerms("API密钥")).toEqual({ prefixes: ["api"], pairs: ["密钥"], stopwords: false });
    expect(searchWordTerms('"Kettle"')).toEqual({ prefixes: ["kettle"], pairs: [], stopwords: false });
    expect(searchWordTerms("the")).toEqual({ prefixes: [], pairs: [], stopwords: true });
    expect(searchWordTerms("x")).toEqual({ prefixes: [], pairs: [], stopwords: false });
    expect(searchWordTerms("退")).toEqual({ prefixes: [], pairs: [], stopwords: false });
  });
});
