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
  const data: Row[] = [header.map((value) => ({ value, fontWeight: "bold" as const })), ...rows];
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

/** A metadata value as a cell: scalars keep their type, structures are written as JSON. */
export const cellOf = (value: unknown): string | number | boolean | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return JSON.stringify(value);
};
