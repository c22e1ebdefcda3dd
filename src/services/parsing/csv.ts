import Papa from "papaparse";
import { ParseError } from "./errors";
import { decodeText } from "./text";
import type { ParsedDocument } from "./types";

/**
 * CSV to one line per row, "header: value; header: value": a row then reads as a sentence that
 * keeps its column names, so a retrieved row still says what each value means.
 */
export function parseCsv(bytes: Uint8Array): ParsedDocument {
  const text = decodeText(bytes, "CSV");
  // papaparse sniffs the delimiter (comma, semicolon, tab, pipe) and handles quoted newlines.
  const result = Papa.parse<string[]>(text, { skipEmptyLines: "greedy" });
  const rows = result.data.map((row) => row.map((cell) => (cell ?? "").replace(/\s+/g, " ").trim()));
  if (!rows.length && result.errors.length) {
    throw new ParseError(`The CSV file could not be read: ${result.errors[0].message}.`);
  }
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
