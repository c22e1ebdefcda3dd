import { describe, expect, it } from "vitest";
import { indexedTerms, queryTerms } from "../../../src/services/retrieval/terms";

describe("keyword terms", () => {
  it("a Chinese question keeps its meaningful characters and pairs, and drops function characters and question words", () => {
    const terms = queryTerms("请问怎么申请退货？");
    expect(terms).toEqual(expect.arrayContaining(["退货", "申请", "退", "货", "么申"]));
    for (const stop of ["请问", "怎么", "请", "问", "怎", "么"]) expect(terms).not.toContain(stop);
  });

  it("English stopwords are dropped from queries, and words are lower-cased", () => {
    expect(queryTerms("How do I reset the API key?")).toEqual(["reset", "api", "key"]);
  });

  it("the index keeps every term, stopwords included, prefixed with its knowledge base", () => {
    const kb = "01900000-0000-7000-8000-0000000000ab";
    expect(indexedTerms("请问 the", kb).split(" ")).toEqual(["k0000000000ab请", "k0000000000ab请问", "k0000000000ab问", "k0000000000abthe"]);
  });
});
