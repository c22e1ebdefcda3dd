import { zipSync, strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { expectInstance } from "../../support/errors";
import { ParseError, parseDocument } from "../../../src/services/parsing";
import { makeDocx } from "../../fixtures/documents";

describe("DOCX parsing", () => {
  it("reads paragraphs as lines, with tabs, line breaks, entities and the core title", async () => {
    const bytes = await makeDocx(["Opening hours", 'Mon\tFri: 9 < 17 & "late"', "First line\nsecond line"], {
      title: "Handbook",
    });
    const doc = await parseDocument(bytes, "handbook.docx");
    expect(doc.title).toBe("Handbook");
    expect(doc.pages).toEqual([
      { number: 1, text: 'Opening hours\nMon\tFri: 9 < 17 & "late"\nFirst line\nsecond line' },
    ]);
  });

  it("starts a new page at an explicit page break, and counts a doubled break once", async () => {
    const xml =
      '<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>One.</w:t></w:r></w:p>' +
      '<w:p><w:r><w:br w:type="page"/></w:r><w:r><w:lastRenderedPageBreak/><w:t>Two.</w:t></w:r></w:p>' +
      '<w:p><w:r><w:lastRenderedPageBreak/><w:t>Three</w:t></w:r><w:r><w:t xml:space="preserve"> ' +
      "again.</w:t></w:r></w:p></w:body></w:document>";
    const doc = await parseDocument(zipSync({ "word/document.xml": strToU8(xml) }), "pages.docx");
    expect(doc.pages).toEqual([
      { number: 1, text: "One." },
      { number: 2, text: "Two." },
      { number: 3, text: "Three again." },
    ]);
  });

  it("keeps Chinese text", async () => {
    const doc = await parseDocument(await makeDocx(["退货政策：三十天内可以退货。"]), "zh.docx");
    expect(doc.pages[0].text).toBe("退货政策：三十天内可以退货。");
  });

  it.each([
    ["bytes that are not a zip", new TextEncoder().encode("PK? no, just text"), /not a valid \.docx/],
    ["a zip without word/document.xml", zipSync({ "hello.txt": strToU8("hi") }), /not a Word document/],
  ])("gives a readable ParseError for %s", async (_, bytes, message) => {
    const err = await parseDocument(bytes, "broken.docx").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseError);
    expect(expectInstance(err, ParseError).message).toMatch(message);
  });
});
