import { describe, expect, it } from "vitest";
import { lexicalScores } from "../../../src/services/evaluation/metrics";

const contexts = [
  "Refunds are possible within 30 days of purchase with the receipt.",
  "Our shop opens at nine and closes at five.",
];

describe("lexical evaluation metrics", () => {
  it("an answer taken from the right context scores high on every metric", () => {
    const s = lexicalScores({
      question: "Within how many days are refunds possible?",
      answer: "Refunds are possible within 30 days of purchase.",
      contexts,
      reference: "Refunds are possible within 30 days.",
    });
    expect(s.faithfulness).toBe(1);
    expect(s.contextPrecision).toBe(1);
    expect(s.contextRecall).toBe(1);
    expect(s.answerRelevancy!).toBeGreaterThan(0.5);
    expect(s.answerSimilarity!).toBeGreaterThan(0.7);
    expect(s.answerCorrectness!).toBeGreaterThan(0.7);
  });

  it("an invented, unrelated answer scores low, and the right passage ranked second halves precision", () => {
    const s = lexicalScores({
      question: "Within how many days are refunds possible?",
      answer: "Penguins live in Antarctica.",
      contexts: [...contexts].reverse(),
      reference: "Refunds are possible within 30 days.",
    });
    expect(s).toMatchObject({
      faithfulness: 0,
      answerRelevancy: 0,
      answerSimilarity: 0,
      answerCorrectness: 0,
      contextPrecision: 0.5,
      contextRecall: 1,
    });
  });

  it("metrics that need a reference or a context are null without them, and scores are deterministic", () => {
    const input = { question: "退货需要几天？", answer: "退货需要三十天。", contexts: [] };
    const s = lexicalScores(input);
    expect(s).toMatchObject({
      contextPrecision: null,
      contextRecall: null,
      answerCorrectness: null,
      answerSimilarity: null,
      faithfulness: 0,
    });
    expect(s.answerRelevancy!).toBeGreaterThan(0.3);
    expect(lexicalScores(input)).toEqual(s);
  });
});
