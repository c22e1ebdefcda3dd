import { describe, expect, it } from "vitest";
import { CitationMarker } from "../../src/services/knowledge/citations";
import { streamPieces } from "../../src/services/llm/text";

const passages = [
  { index: 1, text: "The store opens at nine in the morning. It closes at five." },
  { index: 2, text: "Refunds are accepted within thirty days of purchase." },
  { index: 3, text: "退货需要在三十天内完成。" },
];

function run(answer: string) {
  const marker = new CitationMarker(passages);
  let out = "";
  for (const piece of streamPieces(answer)) out += marker.push(piece);
  out += marker.flush();
  return { out, cited: [...marker.cited] };
}

describe("in-line citation markers", () => {
  it("marks each sentence with the passage it comes from, streamed piece by piece", () => {
    const { out, cited } = run("The store opens at nine in the morning. Refunds are accepted within thirty days.");
    expect(out).toBe("The store opens at nine in the morning.[1] Refunds are accepted within thirty days.[2]");
    expect(cited).toEqual([1, 2]);
  });

  it("leaves sentences without a source unmarked", () => {
    const { out, cited } = run("Hello there! Refunds are accepted within thirty days of purchase.");
    expect(out).toBe("Hello there! Refunds are accepted within thirty days of purchase.[2]");
    expect(cited).toEqual([2]);
  });

  it("works for Chinese text without spaces", () => {
    const { out, cited } = run("退货需要在三十天内完成。");
    expect(out).toBe("退货需要在三十天内完成。[3]");
    expect(cited).toEqual([3]);
  });

  it("marks a final sentence without punctuation on flush", () => {
    expect(run("It closes at five").out).toBe("It closes at five[1]");
  });
});
