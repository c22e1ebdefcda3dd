import Papa from "papaparse";
import { unzipSync } from "fflate";
import { ParseError } from "./errors";
import { decodeText } from "./text";

/**
 * The cells of spreadsheets, as text, for what reads rows (managed SQL tables, batch QA questions): one reader of each
 * format, so each use gets the same decoding and the same guards.
 */

/** What one workbook may expand to: a small .xlsx can unzip to gigabytes. */
const XLSX_EXPANDED_BYTES = 100 * 1024 * 1024;

/**
 * A CSV file's rows (delimiter sniffed, quoted newlines kept, blank lines skipped). Text in UTF-8 or UTF-16 with its
 * mark; anything else is refused (decodeText) rather than read as mojibake.
 */
export function csvCells(bytes: Uint8Array): string[][] {
  const result = Papa.parse<string[]>(decodeText(bytes, "CSV"), { skipEmptyLines: "greedy" });
  if (!result.data.length && result.errors.length)
    throw new ParseError(`The CSV file could not be read: ${result.errors[0].message}.`);
  return result.data.map((row) => row.map((cell) => cell ?? ""));
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const xmlText = (s: string) =>
  s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (whole, e: string) => {
    if (e[0] !== "#") return ENTITIES[e.toLowerCase()];
    const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    // Past U+10FFFF no character exists (String.fromCodePoint throws): the workbook is damaged, as when it is no zip.
    if (code > 0x10ffff)
      throw new ParseError(`The workbook is damaged: a cell refers to a character that does not exist (${whole}).`);
    return String.fromCodePoint(code);
  });
/**
 * Excel's escape of a character XML cannot carry (ECMA-376 Part 1, 22.9.2.19 ST_Xstring): `_xHHHH_` is the UTF-16
 * unit HHHH (`_x000D_` a carriage return), and `_x005F_` escapes the underscore of a literal `_xHHHH_`.
 */
const unescapeXstring = (s: string) =>
  s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const cellText = (s: string) => unescapeXstring(xmlText(s));
const PHONETIC = /<rPh\b[^>]*?(?:\/>|>[\s\S]*?<\/rPh>)|<phoneticPr\b[^>]*?(?:\/>|>[\s\S]*?<\/phoneticPr>)/g;
/**
 * The text of a rich string (<si>, <is>): its runs' <t>, without the phonetic reading Japanese Excel keeps beside it
 * (<rPh>, <phoneticPr>), which Excel does not show in the cell.
 */
const runsOf = (xml: string) =>
  [...xml.replace(PHONETIC, "").matchAll(/<t(?:\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/t>)/g)]
    .map((t) => cellText(t[1] ?? ""))
    .join("");

/**
 * The first worksheet of an .xlsx file: shared and inline strings, numbers as written; rows with no text left out.
 * Cells past `maxColumns` are not kept and reading stops after `maxRows` rows (a caller refusing more sees one more).
 */
export function xlsxCells(bytes: Uint8Array, limits: { maxColumns: number; maxRows: number }): string[][] {
  let files: Record<string, Uint8Array>;
  let expanded = 0;
  try {
    files = unzipSync(bytes, {
      filter(f) {
        const wanted = f.name === "xl/sharedStrings.xml" || /^xl\/worksheets\/sheet\d+\.xml$/.test(f.name);
        if (wanted) expanded += f.originalSize;
        if (expanded > XLSX_EXPANDED_BYTES) throw new ParseError("The workbook expands to too much data.");
        return wanted;
      },
    });
  } catch (err) {
    if (err instanceof ParseError) throw err;
    throw new ParseError("The file is not a readable .xlsx workbook.");
  }
  const decoder = new TextDecoder();
  const shared = [
    ...decoder.decode(files["xl/sharedStrings.xml"] ?? new Uint8Array()).matchAll(/<si>([\s\S]*?)<\/si>/g),
  ].map((m) => runsOf(m[1]));
  const sheetName = Object.keys(files)
    .filter((n) => n.startsWith("xl/worksheets/"))
    .sort((a, b) => Number(/\d+/.exec(a.slice(14))) - Number(/\d+/.exec(b.slice(14))))[0];
  if (!sheetName) throw new ParseError("The workbook has no worksheet.");
  const table: string[][] = [];
  for (const row of decoder.decode(files[sheetName]).matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)) {
    const cells: string[] = [];
    for (const cell of row[1].matchAll(/<c([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const ref = /\br="([A-Z]+)\d+"/.exec(cell[1])?.[1];
      const col = ref ? [...ref].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1 : cells.length;
      if (col > limits.maxColumns) continue;
      const type = /\bt="(\w+)"/.exec(cell[1])?.[1];
      const body = cell[2] ?? "";
      const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      while (cells.length < col) cells.push("");
      cells[col] = type === "s" ? (shared[Number(v)] ?? "") : type === "inlineStr" ? runsOf(body) : cellText(v ?? "");
    }
    if (cells.some((c) => c.trim())) table.push(cells);
    if (table.length > limits.maxRows) break;
  }
  return table;
}
