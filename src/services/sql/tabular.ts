import Papa from "papaparse";
import { unzipSync } from "fflate";
import type { ManagedColumn } from "../../../durable-objects/managed-database";
import { decodeText } from "../parsing/text";
import { ParseError } from "../parsing/errors";

export const TABULAR_LIMITS = {
  bytes: 20 * 1024 * 1024,
  rows: 200_000,
  columns: 200,
  xlsxExpandedBytes: 100 * 1024 * 1024,
} as const;

export class TabularError extends Error {}

export interface Tabular {
  columns: ManagedColumn[];
  rows: (string | number | null)[][];
}

/** A SQL-safe name: lower-case letters, digits and underscores, starting with a letter, at most 63 characters. */
export function sqlName(raw: string, fallback: string): string {
  const name = raw
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 63);
  return /^[a-z]/.test(name) ? name : `${fallback}${name ? `_${name}` : ""}`.slice(0, 63);
}

/**
 * A whole number an INTEGER column holds unchanged: at most 15 digits (an order or card number past that would lose
 * digits as a number) and no leading zero (a phone number or a postal code would lose it). Other whole numbers are
 * TEXT, as are decimals with a leading zero.
 */
const INTEGER = /^-?(0|[1-9]\d{0,14})$/;
const DECIMAL = /^-?(0|[1-9]\d*)?\.\d+(e[+-]?\d+)?$|^-?(0|[1-9]\d*)(\.\d*)?e[+-]?\d+$/i;
const isReal = (v: string) => INTEGER.test(v) || DECIMAL.test(v);

/** Header row + records to typed columns (INTEGER, REAL or TEXT, from every non-empty value) and converted rows. */
export function toTabular(table: string[][]): Tabular {
  const [header, ...records] = table;
  if (!header?.length || !header.some((h) => h.trim())) throw new TabularError("The file has no header row.");
  if (header.length > TABULAR_LIMITS.columns)
    throw new TabularError(`The file has more than ${TABULAR_LIMITS.columns} columns.`);
  if (records.length > TABULAR_LIMITS.rows)
    throw new TabularError(`The file has more than ${TABULAR_LIMITS.rows} rows.`);
  // A cell past the header's last column has no column to go in: refused rather than dropped (empty ones are the
  // trailing separators spreadsheets write).
  const wide = records.findIndex((r) => r.slice(header.length).some((cell) => cell.trim()));
  if (wide >= 0)
    throw new TabularError(
      `Row ${wide + 2} has a value past the header's ${header.length} columns; name that column in the header row.`,
    );
  const seen = new Set<string>();
  const names = header.map((h, i) => {
    let name = sqlName(h, `column_${i + 1}`);
    for (let n = 2; seen.has(name); n++) name = `${sqlName(h, `column_${i + 1}`).slice(0, 58)}_${n}`;
    seen.add(name);
    return name;
  });
  const columns: ManagedColumn[] = names.map((name, i) => {
    const values = records.map((r) => (r[i] ?? "").trim()).filter(Boolean);
    const type =
      values.length && values.every((v) => INTEGER.test(v))
        ? "INTEGER"
        : values.length && values.every(isReal)
          ? "REAL"
          : "TEXT";
    return { name, type };
  });
  const rows = records.map((r) =>
    columns.map((c, i) => {
      const v = (r[i] ?? "").trim();
      if (!v) return null;
      return c.type === "TEXT" ? v : Number(v);
    }),
  );
  return { columns, rows };
}

export function parseCsvTable(bytes: Uint8Array): Tabular {
  let text: string;
  try {
    text = decodeText(bytes, "CSV");
  } catch (err) {
    if (err instanceof ParseError) throw new TabularError(err.message);
    throw err;
  }
  const result = Papa.parse<string[]>(text, { skipEmptyLines: "greedy" });
  if (!result.data.length)
    throw new TabularError(`The CSV file could not be read${result.errors[0] ? `: ${result.errors[0].message}` : ""}.`);
  return toTabular(result.data);
}

const xmlText = (s: string) =>
  s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) =>
    e === "lt"
      ? "<"
      : e === "gt"
        ? ">"
        : e === "amp"
          ? "&"
          : e === "quot"
            ? '"'
            : e === "apos"
              ? "'"
              : String.fromCodePoint(
                  e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10),
                ),
  );

/** The first worksheet of an .xlsx file (shared and inline strings, numbers), as a header row and records. */
export function parseXlsxTable(bytes: Uint8Array): Tabular {
  let files: Record<string, Uint8Array>;
  let expanded = 0;
  try {
    files = unzipSync(bytes, {
      filter(f) {
        const wanted =
          f.name === "xl/sharedStrings.xml" ||
          f.name === "xl/workbook.xml" ||
          /^xl\/worksheets\/sheet\d+\.xml$/.test(f.name);
        if (wanted) expanded += f.originalSize;
        if (expanded > TABULAR_LIMITS.xlsxExpandedBytes)
          throw new TabularError("The workbook expands to too much data.");
        return wanted;
      },
    });
  } catch (err) {
    if (err instanceof TabularError) throw err;
    throw new TabularError("Not a valid .xlsx file.");
  }
  const decoder = new TextDecoder();
  const shared = [
    ...decoder.decode(files["xl/sharedStrings.xml"] ?? new Uint8Array()).matchAll(/<si>([\s\S]*?)<\/si>/g),
  ].map((m) => [...m[1].matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => xmlText(t[1])).join(""));
  const sheetName = Object.keys(files)
    .filter((n) => n.startsWith("xl/worksheets/"))
    .sort((a, b) => Number(/\d+/.exec(a.slice(14))) - Number(/\d+/.exec(b.slice(14))))[0];
  if (!sheetName) throw new TabularError("The workbook has no worksheet.");
  const table: string[][] = [];
  for (const row of decoder.decode(files[sheetName]).matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)) {
    const cells: string[] = [];
    for (const cell of row[1].matchAll(/<c([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const ref = /\br="([A-Z]+)\d+"/.exec(cell[1])?.[1];
      const col = ref ? [...ref].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1 : cells.length;
      const type = /\bt="(\w+)"/.exec(cell[1])?.[1];
      const body = cell[2] ?? "";
      const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      const value =
        type === "s"
          ? (shared[Number(v)] ?? "")
          : type === "inlineStr"
            ? [...body.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => xmlText(t[1])).join("")
            : xmlText(v ?? "");
      if (col > TABULAR_LIMITS.columns) continue;
      while (cells.length < col) cells.push("");
      cells[col] = value;
    }
    table.push(cells);
    if (table.length > TABULAR_LIMITS.rows + 1) break;
  }
  return toTabular(table.filter((r) => r.some((c) => c.trim())));
}

export function parseTable(filename: string, bytes: Uint8Array): Tabular {
  if (bytes.byteLength > TABULAR_LIMITS.bytes)
    throw new TabularError(`The file is larger than ${TABULAR_LIMITS.bytes} bytes.`);
  const ext = filename.split(".").pop()?.toLowerCase();
  if (ext === "csv" || ext === "tsv" || ext === "txt") return parseCsvTable(bytes);
  if (ext === "xlsx") return parseXlsxTable(bytes);
  throw new TabularError("Tables are created from .csv or .xlsx files.");
}
