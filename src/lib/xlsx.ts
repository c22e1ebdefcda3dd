// The `node` build, not `universal`: universal zips through fflate's async API, which spawns a Web
// Worker for any part over 160 kB (about 500 members) and so fails in workerd ("Worker is not
// defined"). The node build deflates synchronously through node:stream, which nodejs_compat provides.
import type { Readable } from "node:stream";
import type { Row } from "write-excel-file/node";
import { vendored } from "../vendored";
import { lazy } from "./lazy";

const nodeStream = lazy(() => import("node:stream"));

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** OpenAPI response of a spreadsheet download. */
export const xlsxResponse = (description: string) => ({
  description,
  headers: {
    "Content-Disposition": { description: 'attachment; filename="..."', schema: { type: "string" as const } },
  },
  content: { [XLSX_TYPE]: { schema: { type: "string" as const, format: "binary" } } },
});

/** One sheet as an .xlsx download (streamed); the header row is bold and stays in view. */
export async function xlsxDownload(
  header: string[],
  rows: Row[],
  filename: string,
  sheet = "Members",
): Promise<Response> {
  const data: Row[] = [header.map((value) => ({ value, fontWeight: "bold" as const })), ...rows.map(withinCellLimit)];
  const columns = header.map((h) => ({ width: Math.min(Math.max(h.length + 2, 14), 40) }));
  // Imported by the first download: the writer (a module of its own, src/vendor/xlsx.js) and
  // node:stream are evaluated when imported, not at every cold start (docs/decisions.md, "Cold start").
  const [{ default: writeXlsxFile }, { Readable }] = await Promise.all([vendored("xlsx"), nodeStream()]);
  // Streamed: the zip is sent as it is deflated, not built whole first.
  // `toStream` is typed as a union of its two forms; called without a target it gives a Readable.
  const writer = writeXlsxFile(data, { sheet, columns, stickyRowsCount: 1 }) as unknown as {
    toStream(): Promise<Readable>;
  };
  const zip = await writer.toStream();
  const stream = Readable.toWeb(zip) as unknown as ReadableStream<Uint8Array>;
  return new Response(stream, {
    headers: {
      "Content-Type": XLSX_TYPE,
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}

/** Excel's limit on a cell's text: a longer one makes Excel call the file damaged and drop the cell on repair. */
const MAX_CELL_CHARS = 32_767;
const CUT_MARKER = "… (cut)";

/** The text cut to Excel's limit, the marker (within the limit) showing it was. */
function cutToCell(text: string): string {
  if (text.length <= MAX_CELL_CHARS) return text;
  let end = MAX_CELL_CHARS - CUT_MARKER.length;
  // Not between the two halves of a surrogate pair: a lone half is not a character XML can hold.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end) + CUT_MARKER;
}

/** A row with each text cell cut to Excel's limit (the marker showing where). */
export const withinCellLimit = (row: Row): Row =>
  row.map((cell) => {
    if (typeof cell === "string") return cutToCell(cell);
    if (cell && typeof cell === "object" && "value" in cell && typeof cell.value === "string")
      return { ...cell, value: cutToCell(cell.value) };
    return cell;
  });

/** What a cell costs the writer beyond its text: its XML (`<c r="N12345" s="3" t="inlineStr">`...) and objects. */
const CELL_BYTES = 64;

/** UTF-8 bytes of a text, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A surrogate half counts 2 (a pair, 4); any other code unit past U+07FF, 3; past U+007F, 2.
    if (code >= 0x80) bytes += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

/**
 * What a row (its text cells cut to Excel's limit, `withinCellLimit`) costs in the sheet the writer builds whole
 * in memory: its texts in UTF-8 and CELL_BYTES a cell. A bound on the sum bounds the writer's memory where a bound on
 * rows would not (one row may hold 14 cells of 32,767 characters). The heap the writer needed was about three times
 * the sum (Node, write-excel-file 4.1.1: 8 MB of text in 24 MB; 20,000 rows of 14 short cells, 20 MB, in 64 MB).
 */
export function rowBytes(row: Row): number {
  let bytes = 0;
  for (const cell of row) {
    const value = cell && typeof cell === "object" && "value" in cell ? cell.value : cell;
    bytes += CELL_BYTES + (typeof value === "string" ? utf8Length(value) : 0);
  }
  return bytes;
}

/** A metadata value as a cell: scalars keep their type, structures are written as JSON. */
export const cellOf = (value: unknown): string | number | boolean | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return JSON.stringify(value);
};
