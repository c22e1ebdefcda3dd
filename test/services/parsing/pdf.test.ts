import { describe, expect, it } from "vitest";
import { expectInstance } from "../../support/errors";
import { ParseError, parseDocument } from "../../../src/services/parsing";
import { makePdf } from "../../fixtures/documents";

describe("PDF parsing (unpdf inside workerd)", () => {
  it("keeps one entry per page with its number and the document title", async () => {
    const bytes = await makePdf(["The warranty lasts two years.", "Refunds are paid within 14 days of the return."], {
      title: "Policies",
    });
    const doc = await parseDocument(bytes, "policies.pdf");
    expect(doc.title).toBe("Policies");
    expect(doc.pages).toEqual([
      { number: 1, text: "The warranty lasts two years." },
      { number: 2, text: "Refunds are paid within 14 days of the return." },
    ]);
  });

  it("joins the wrapped lines of a paragraph and keeps paragraphs apart", async () => {
    const long =
      "This first paragraph is long enough that the fixture wraps it over several lines of the page, and the " +
      "parser must join them again into one line of text.";
    const doc = await parseDocument(await makePdf([`${long}\n\nA second paragraph.`]), "wrapped.pdf");
    expect(doc.pages[0].text).toBe(`${long}\nA second paragraph.`);
  });

  it("keeps list items on lines of their own", async () => {
    const doc = await parseDocument(await makePdf(["We ship to:\n• Europe\n• Asia"]), "list.pdf");
    expect(doc.pages[0].text).toBe("We ship to:\n• Europe\n• Asia");
  });

  it("leaves the caller's bytes usable (pdf.js may detach what it is given)", async () => {
    const bytes = await makePdf(["Once."]);
    await parseDocument(bytes, "a.pdf");
    expect((await parseDocument(bytes, "a.pdf")).pages[0].text).toBe("Once.");
  });

  it("refuses a PDF without text with the reason", async () => {
    await expect(parseDocument(await makePdf([""]), "scan.pdf")).rejects.toThrow(/no text.*OCR/);
  });

  it.each([
    ["not a PDF at all", new TextEncoder().encode("hello, I am not a PDF")],
    ["a truncated PDF", async () => (await makePdf(["Some text."])).slice(0, 200)],
  ])("gives a readable ParseError for %s", async (_, make) => {
    const bytes = typeof make === "function" ? await make() : make;
    const err = await parseDocument(bytes, "broken.pdf").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ParseError);
    expect(expectInstance(err, ParseError).message).toMatch(/PDF/);
    expect(expectInstance(err, ParseError).message).not.toMatch(/undefined|\[object/);
  });
});
