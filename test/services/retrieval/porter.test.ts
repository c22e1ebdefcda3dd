import { describe, expect, it } from "vitest";
import { porterStem } from "../../../src/services/knowledge/retrieval/porter";

describe("Porter stemmer", () => {
  it("stems like Porter's reference vocabulary (and like SQLite FTS5's porter tokenizer)", () => {
    const cases: Record<string, string> = {
      caresses: "caress",
      ponies: "poni",
      cats: "cat",
      feed: "feed",
      agreed: "agre",
      plastered: "plaster",
      motoring: "motor",
      sing: "sing",
      conflated: "conflat",
      hopping: "hop",
      filing: "file",
      happy: "happi",
      relational: "relat",
      conditional: "condit",
      rational: "ration",
      digitizer: "digit",
      operator: "oper",
      hopefulness: "hope",
      goodness: "good",
      formalize: "formal",
      electricity: "electr",
      revival: "reviv",
      allowance: "allow",
      adjustment: "adjust",
      adoption: "adopt",
      controlling: "control",
      generalization: "gener",
      retrieval: "retriev",
      retrieving: "retriev",
      libraries: "librari",
    };
    for (const [word, stem] of Object.entries(cases)) expect(porterStem(word), word).toBe(stem);
  });

  it("leaves short words, digits and other scripts alone", () => {
    for (const w of ["is", "a1", "2024", "退货", "café"]) expect(porterStem(w)).toBe(w);
  });
});
