import { describe, expect, it } from "vitest";
import { expectInstance } from "../../support/errors";
import {
  ParseError,
  SUPPORTED_FILE_TYPES,
  UnsupportedFileType,
  fileTypeOf,
  parseDocument,
} from "../../../src/services/parsing";
import { utf8 } from "../../fixtures/documents";

describe("fileTypeOf", () => {
  it.each([
    ["Report.PDF", undefined, "pdf"],
    ["notes.docx", "application/octet-stream", "docx"],
    ["page.htm", undefined, "html"],
    ["README.markdown", undefined, "md"],
    ["data.tsv", undefined, "csv"],
    ["upload", "application/json; charset=utf-8", "json"],
    ["upload.bin", "text/plain", "txt"],
    ["photo.png", "image/png", null],
    ["noextension", undefined, null],
  ])("%s (%s) is %s", (filename, contentType, expected) => {
    expect(fileTypeOf(filename, contentType)).toBe(expected);
  });
});

describe("SUPPORTED_FILE_TYPES", () => {
  it("lists every parser with content types and a size limit", () => {
    expect(SUPPORTED_FILE_TYPES.map((t) => t.fileType).sort()).toEqual([
      "csv",
      "docx",
      "html",
      "json",
      "md",
      "pdf",
      "txt",
    ]);
    for (const t of SUPPORTED_FILE_TYPES) {
      expect(t.extensions[0]).toBe(t.extension);
      expect(t.contentTypes.length).toBeGreaterThan(0);
      expect(t.maxSize).toBeGreaterThanOrEqual(10 * 1024 * 1024);
    }
  });
});

describe("parseDocument", () => {
  it("refuses an unsupported type with UnsupportedFileType naming it and the supported ones", async () => {
    const err = await parseDocument(utf8("x"), "slides.pptx").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedFileType);
    expect(err).toBeInstanceOf(ParseError);
    expect(expectInstance(err, UnsupportedFileType).message).toBe(
      'Unsupported file type: ".pptx" files cannot be read. Supported types: pdf, docx, txt, md, html, csv, json.',
    );
    await expect(parseDocument(utf8("x"), "blob", "application/zip")).rejects.toThrow(/"blob" \(application\/zip\)/);
  });

  it("refuses a file over its type's size limit", async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61);
    await expect(parseDocument(big, "big.txt")).rejects.toThrow(
      "The file is too large: 10 MB, while txt files can be at most 10 MB.",
    );
  });

  it("dispatches by extension before content type", async () => {
    const doc = await parseDocument(utf8("# Title\n\nBody."), "a.md", "text/plain");
    expect(doc.title).toBe("Title");
  });
});
