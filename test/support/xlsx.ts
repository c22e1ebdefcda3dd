// Reading the .xlsx files the exports answer with (members, records, statistics, batch Q&A), for the route tests in the
// Workers pool and the browser tests in Node alike.
import { strFromU8, unzipSync } from "fflate";

export type Cell = string | number | boolean | null;

/** Unzips an .xlsx and reads its first sheet into rows of values (shared strings resolved). */
export function readXlsx(bytes: ArrayBuffer | Uint8Array): Cell[][] {
  const files = unzipSync(new Uint8Array(bytes));
  if (!files["[Content_Types].xml"] || !files["xl/workbook.xml"]) throw new Error("not an xlsx package");
  const decode = (s: string) =>
    s
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, "&");
  const shared = files["xl/sharedStrings.xml"]
    ? [...strFromU8(files["xl/sharedStrings.xml"]).matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
        decode([...m[1].matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join("")),
      )
    : [];
  const sheet = strFromU8(files["xl/worksheets/sheet1.xml"]);
  const rows: Cell[][] = [];
  for (const row of sheet.matchAll(/<row[^>]*?r="(\d+)"[^>]*>([\s\S]*?)<\/row>/g)) {
    const cells: Cell[] = [];
    for (const cell of row[2].matchAll(/<c([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const ref = /r="([A-Z]+)\d+"/.exec(cell[1])![1];
      const col = [...ref].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
      const type = /t="(\w+)"/.exec(cell[1])?.[1];
      const raw = /<v>([\s\S]*?)<\/v>/.exec(cell[2] ?? "")?.[1];
      const inline = /<is>[\s\S]*?<t[^>]*>([\s\S]*?)<\/t>/.exec(cell[2] ?? "")?.[1];
      let value: Cell = null;
      if (type === "s") value = shared[Number(raw)];
      else if (type === "b") value = raw === "1";
      else if (type === "inlineStr") value = decode(inline ?? "");
      else if (type === "str") value = decode(raw ?? "");
      else if (raw !== undefined) value = Number(raw);
      cells[col] = value;
    }
    rows[Number(row[1]) - 1] = cells;
  }
  // Trailing empty cells are not written; pad every row to the widest one.
  const width = Math.max(0, ...rows.map((r) => r.length));
  return Array.from(rows, (r) => Array.from({ length: width }, (_, i) => r?.[i] ?? null));
}

/** Excel's serial number of an instant (1900 date system, UTC), as date cells store it. */
export const excelSerial = (ms: number) => ms / 86_400_000 + 25569;
