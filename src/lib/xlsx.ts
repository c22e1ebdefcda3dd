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

const withinCellLimit = (row: Row): Row =>
  row.map((cell) => {
    if (typeof cell === "string") return cutToCell(cell);
    if (cell && typeof cell === "object" && "value" in cell && typeof cell.value === "string")
      return { ...cell, value: cutToCell(cell.value) };
    return cell;
  });

/** A metadata value as a cell: scalars keep their type, structures are written as JSON. */
export const cellOf = (value: unknown): string | number | boolean | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return JSON.stringify(value);
};
