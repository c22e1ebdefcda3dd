import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { ParseError } from "../../../src/services/parsing/errors";
import { xlsxCells } from "../../../src/services/parsing/spreadsheet";

const NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const LIMITS = { maxColumns: 10, maxRows: 10 };

/** A one-sheet workbook: row 1 holds the shared strings given as raw <si> bodies, row 2 the raw <c> elements. */
function workbook(sharedBodies: string[], inlineCells: string[] = []): Uint8Array {
  const shared =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="${NS}" count="${sharedBodies.length}">` +
    sharedBodies.map((b) => `<si>${b}</si>`).join("") +
    "</sst>";
  const cols = sharedBodies.map((_, i) => `<c r="${String.fromCharCode(65 + i)}1" t="s"><v>${i}</v></c>`).join("");
  const sheet =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${NS}"><sheetData>` +
    `<row r="1">${cols}</row><row r="2">${inlineCells.join("")}</row></sheetData></worksheet>`;
  return zipSync({ "xl/sharedStrings.xml": strToU8(shared), "xl/worksheets/sheet1.xml": strToU8(sheet) });
}

describe("xlsxCells (batch QA questions, SQL tables from .xlsx)", () => {
  it("reads a Japanese cell without its phonetic guide (<rPh>), as Excel shows it, shared or inline", () => {
    // What Japanese Excel writes for a cell typed through the IME: the text, then its reading in <rPh>.
    const phonetic =
      '<rPh sb="0" eb="2"><t>ヘンピン</t></rPh><rPh sb="2" eb="4"><t>ホウホウ</t></rPh><phoneticPr fontId="1"/>';
    const bytes = workbook(
      [`<t>返品方法</t>${phonetic}`, `<r><t>送料</t></r><r><rPr><b/></rPr><t>無料</t></r>${phonetic}`],
      [`<c r="A2" t="inlineStr"><is><t>返品方法</t>${phonetic}</is></c>`],
    );
    expect(xlsxCells(bytes, LIMITS)).toEqual([["返品方法", "送料無料"], ["返品方法"]]);
  });

  it("reads character references up to U+10FFFF; one past it is a damaged workbook (ParseError), not a crash", () => {
    expect(xlsxCells(workbook(["<t>&#x10FFFF;&#65;&#x42;</t>"]), LIMITS)).toEqual([["\u{10FFFF}AB"]]);
    for (const bad of ["&#99999999;", "&#x110000;"]) {
      for (const bytes of [
        workbook([`<t>Where ${bad}</t>`]),
        workbook(["<t>Q</t>"], [`<c r="A2" t="inlineStr"><is><t>Where ${bad}</t></is></c>`]),
      ])
        expect(() => xlsxCells(bytes, LIMITS)).toThrow(ParseError);
    }
  });

  it("decodes Excel's _xHHHH_ escapes (a carriage return is _x000D_), and _x005F_ keeps a literal one", () => {
    const bytes = workbook(
      ['<t xml:space="preserve">Line one_x000D_\nLine two</t>', "<t>_x005F_x000D_ stays_x0009_written</t>", "<t/>"],
      ['<c r="A2" t="inlineStr"><is><t>Tab_x0009_here</t></is></c>', '<c r="B2" t="str"><v>A_x000A_B</v></c>'],
    );
    expect(xlsxCells(bytes, LIMITS)).toEqual([
      ["Line one\r\nLine two", "_x000D_ stays\twritten", ""],
      ["Tab\there", "A\nB"],
    ]);
  });
});
