import { csvCells } from "./spreadsheet";
import type { ParsedDocument } from "./types";

/**
 * CSV to one line per row, "header: value; header: value": a row then reads as a sentence that
 * keeps its column names, so a retrieved row still says what each value means.
 */
export function parseCsv(bytes: Uint8Array): ParsedDocument {
  const rows = csvCells(bytes).map((row) => row.map((cell) => cell.replace(/\s+/g, " ").trim()));
  const [header = [], ...records] = rows;
  if (!records.length) return { pages: [{ number: 1, text: header.filter(Boolean).join("; ") }] };
  const names = header.map((name, i) => name || `column ${i + 1}`);
  const lines = records.map((row) =>
    row
      .map((value, i) => (value ? `${names[i] ?? `column ${i + 1}`}: ${value}` : ""))
      .filter(Boolean)
      .join("; "),
  );
  return { pages: [{ number: 1, text: lines.filter(Boolean).join("\n") }] };
}
