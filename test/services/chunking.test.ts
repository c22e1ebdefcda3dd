import { describe, expect, it } from "vitest";
import { chunkDocument, splitSentences } from "../../src/services/knowledge/chunking";
import type { Chunk, ParsedDocument } from "../../src/services/parsing";

const fullText = (doc: ParsedDocument) => doc.pages.map((p) => p.text).join("\n\n");
const onePage = (text: string): ParsedDocument => ({ pages: [{ number: 1, text }] });

/** Every chunk is exactly its slice of the full text, within the target unless a sentence is longer. */
function expectWellFormed(doc: ParsedDocument, chunks: Chunk[], target: number) {
  const text = fullText(doc);
  for (const c of chunks) {
    expect(text.slice(c.startCharIdx, c.endCharIdx)).toBe(c.text);
    expect(c.text).toBe(c.text.trim());
    expect(c.pageStart).toBeLessThanOrEqual(c.pageEnd);
    expect(c.text.length).toBeLessThanOrEqual(target);
  }
}

describe("splitSentences", () => {
  it("splits English on .!? before a space or the end, and at line ends", () => {
    expect(
      splitSentences('Hello there. How are you? "Fine!" she said.\nNew line without stop\n\n  Last one...  '),
    ).toEqual(["Hello there.", "How are you?", '"Fine!" she said.', "New line without stop", "Last one..."]);
  });

  it("does not split decimals, abbreviations, initialisms or a sentence going on in lower case", () => {
    expect(
      splitSentences("It costs 3.50 euros, e.g. for Dr. Smith in the U.S. today. Done. Visit example.com. Then go."),
    ).toEqual([
      "It costs 3.50 euros, e.g. for Dr. Smith in the U.S. today.",
      "Done.",
      "Visit example.com.",
      "Then go.",
    ]);
  });

  it("splits Chinese and Japanese without spaces on 。！？；", () => {
    expect(splitSentences("我们提供三十天退货。运费由谁承担？由我们承担！第一；第二。「引用。」結構です。")).toEqual([
      "我们提供三十天退货。",
      "运费由谁承担？",
      "由我们承担！",
      "第一；",
      "第二。",
      "「引用。」",
      "結構です。",
    ]);
  });

  it("gives nothing for blank text", () => {
    expect(splitSentences("  \n\n ")).toEqual([]);
  });
});

describe("chunkDocument", () => {
  const sentences = Array.from(
    { length: 40 },
    (_, i) => `Sentence number ${i} talks about topic ${i % 7} at some length.`,
  );

  it("packs whole sentences up to the target, with offsets that round-trip", () => {
    const doc = onePage(sentences.join(" "));
    const chunks = chunkDocument(doc, { targetChars: 200 });
    expect(chunks.length).toBeGreaterThan(5);
    expectWellFormed(doc, chunks, 200);
    // No sentence is cut: each chunk is a run of whole sentences, and together they are all of them in order.
    expect(chunks.flatMap((c) => splitSentences(c.text))).toEqual(sentences);
    // Packed: adding the next sentence would have gone over the target.
    for (let i = 0; i + 1 < chunks.length; i++)
      expect(chunks[i + 1].endCharIdx - chunks[i].startCharIdx).toBeGreaterThan(200);
  });

  it("uses about 800 characters by default", () => {
    const chunks = chunkDocument(onePage(sentences.join(" ")));
    expect(Math.max(...chunks.map((c) => c.text.length))).toBeGreaterThan(600);
    expect(Math.max(...chunks.map((c) => c.text.length))).toBeLessThanOrEqual(800);
  });

  it("starts a new chunk on each page, so every chunk names its one page", () => {
    const doc: ParsedDocument = {
      pages: [
        { number: 1, text: "Page one ends here." },
        { number: 2, text: "Page two starts. It goes on." },
        { number: 3, text: "Third." },
      ],
    };
    const chunks = chunkDocument(doc, { targetChars: 40 });
    expectWellFormed(doc, chunks, 40);
    expect(chunks.map(({ text, pageStart, pageEnd }) => ({ text, pageStart, pageEnd }))).toEqual([
      { text: "Page one ends here.", pageStart: 1, pageEnd: 1 },
      { text: "Page two starts. It goes on.", pageStart: 2, pageEnd: 2 },
      { text: "Third.", pageStart: 3, pageEnd: 3 },
    ]);
    expect(chunkDocument(doc, { targetChars: 20 }).map((c) => [c.pageStart, c.pageEnd])).toEqual([
      [1, 1],
      [2, 2],
      [2, 2],
      [3, 3],
    ]);
  });

  it("cuts a sentence longer than the target at word boundaries, and CJK between characters", () => {
    const long = `${"word ".repeat(60).trim()}.`;
    const doc = onePage(`Short one. ${long} After.`);
    const chunks = chunkDocument(doc, { targetChars: 50 });
    expectWellFormed(doc, chunks, 50);
    expect(chunks.every((c) => /^(\w+|Short one\.)( \w+\.?)*\.?$/.test(c.text))).toBe(true);
    expect(chunks.map((c) => c.text).join(" ")).toBe(`Short one. ${long} After.`);

    const zh = onePage(`${"退货政策规定三十天内可以退货".repeat(10)}。好的。`);
    const zhChunks = chunkDocument(zh, { targetChars: 40 });
    expectWellFormed(zh, zhChunks, 40);
    expect(zhChunks.map((c) => c.text).join("")).toBe(fullText(zh));
  });

  it("never cuts a surrogate pair", () => {
    const doc = onePage("😀".repeat(50));
    const chunks = chunkDocument(doc, { targetChars: 9 });
    expectWellFormed(doc, chunks, 9);
    expect(chunks.every((c) => !/[\uD800-\uDBFF]$|^[\uDC00-\uDFFF]/.test(c.text))).toBe(true);
  });

  it("repeats overlapSentences sentences at the start of the next chunk", () => {
    const doc = onePage(sentences.slice(0, 10).join(" "));
    const chunks = chunkDocument(doc, { targetChars: 200, overlapSentences: 1 });
    expectWellFormed(doc, chunks, 200);
    for (let i = 0; i + 1 < chunks.length; i++) {
      const last = splitSentences(chunks[i].text).at(-1)!;
      expect(splitSentences(chunks[i + 1].text)[0]).toBe(last);
    }
    expect(chunks.at(-1)!.text.endsWith(sentences[9])).toBe(true);
  });

  it("gives no chunks for an empty or blank document", () => {
    expect(chunkDocument({ pages: [] })).toEqual([]);
    expect(
      chunkDocument({
        pages: [
          { number: 1, text: "" },
          { number: 2, text: " \n " },
        ],
      }),
    ).toEqual([]);
  });
});
