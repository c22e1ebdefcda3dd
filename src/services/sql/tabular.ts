import type { ManagedColumn } from "../../../durable-objects/managed-database";
import { csvCells, xlsxCells } from "../parsing/spreadsheet";
import { ParseError } from "../parsing/errors";

export const TABULAR_LIMITS = {
  bytes: 20 * 1024 * 1024,
  rows: 200_000,
  columns: 200,
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

/** Rows of a spreadsheet as a typed table; what cannot be read is a TabularError, the reason shown. */
function readTable(read: () => string[][]): Tabular {
  let table: string[][];
  try {
    table = read();
  } catch (err) {
    if (err instanceof ParseError) throw new TabularError(err.message);
    throw err;
  }
  return toTabular(table);
}

const parseCsvTable = (bytes: Uint8Array) => readTable(() => csvCells(bytes));
/** The first worksheet of an .xlsx file (shared and inline strings, numbers), as a header row and records. */
const parseXlsxTable = (bytes: Uint8Array) =>
  readTable(() => xlsxCells(bytes, { maxColumns: TABULAR_LIMITS.columns, maxRows: TABULAR_LIMITS.rows + 1 }));

export function parseTable(filename: string, bytes: Uint8Array): Tabular {
  if (bytes.byteLength > TABULAR_LIMITS.bytes)
    throw new TabularError(`The file is larger than ${TABULAR_LIMITS.bytes} bytes.`);
  const ext = filename.split(".").pop()?.toLowerCase();
  if (ext === "csv" || ext === "tsv" || ext === "txt") return parseCsvTable(bytes);
  if (ext === "xlsx") return parseXlsxTable(bytes);
  throw new TabularError("Tables are created from .csv or .xlsx files.");
}
