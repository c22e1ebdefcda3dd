// The rows of a CSV or XLSX file, read in the browser: the API has no FAQ import endpoint (the spec
// shows none), so the console reads the file and creates the FAQs one by one. Loaded on first import
// only (a chunk of its own), with papaparse and fflate.
import { unzipSync, strFromU8 } from "fflate";
import Papa from "papaparse";
import { UnreadableFile } from "./unreadable-file";

/** Every row as strings (cells trimmed); the first sheet of a workbook. */
export async function readRows(file: File): Promise<string[][]> {
  if (/\.xlsx$/i.test(file.name)) return xlsxRows(new Uint8Array(await file.arrayBuffer()));
  const parsed = Papa.parse<string[]>((await file.text()).replace(/^\uFEFF/, ""), { skipEmptyLines: true });
  return parsed.data.map((row) => row.map((cell) => cell.trim()));
}

const xml = (text: string) => new DOMParser().parseFromString(text, "application/xml");
/** Elements by local name, whatever prefix the workbook's writer used. */
const all = (node: Document | Element, name: string) => Array.from(node.getElementsByTagNameNS("*", name));

/** Column letters of a cell reference ("BC12") as a 0-based index. */
const column = (ref: string) => [...ref.replace(/\d+$/, "")].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;

/** The archive's files; a file that is not one (fflate's errors carry a numeric code) is unreadable. */
function unzip(bytes: Uint8Array, filter: (f: { name: string }) => boolean) {
  try {
    return unzipSync(bytes, { filter });
  } catch (err) {
    if (err instanceof Error && typeof (err as Error & { code?: unknown }).code === "number")
      throw new UnreadableFile(err.message);
    throw err;
  }
}

function xlsxRows(bytes: Uint8Array): string[][] {
  const files = unzip(
    bytes,
    (f) =>
      f.name === "xl/sharedStrings.xml" ||
      f.name === "xl/workbook.xml" ||
      f.name === "xl/_rels/workbook.xml.rels" ||
      f.name.startsWith("xl/worksheets/"),
  );
  const read = (name: string) => (files[name] ? xml(strFromU8(files[name])) : null);
  const shared = read("xl/sharedStrings.xml");
  const strings = shared
    ? all(shared, "si").map((si) =>
        all(si, "t")
          .map((t) => t.textContent ?? "")
          .join(""),
      )
    : [];
  // The first sheet in the workbook's order, through its relationship; else the first sheet file.
  const firstId = all(read("xl/workbook.xml") ?? xml("<x/>"), "sheet")[0]?.getAttributeNS(
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "id",
  );
  const target = all(read("xl/_rels/workbook.xml.rels") ?? xml("<x/>"), "Relationship")
    .find((r) => r.getAttribute("Id") === firstId)
    ?.getAttribute("Target");
  const sheetName = target
    ? `xl/${target.replace(/^\/?xl\//, "")}`
    : Object.keys(files)
        .filter((n) => n.startsWith("xl/worksheets/sheet"))
        .sort()[0];
  const sheet = sheetName ? read(sheetName) : null;
  if (!sheet) throw new UnreadableFile("no worksheet");
  return all(sheet, "row")
    .map((row) => {
      const cells: string[] = [];
      for (const c of all(row, "c")) {
        const type = c.getAttribute("t");
        const value = all(c, "v")[0]?.textContent ?? "";
        const text =
          type === "s"
            ? (strings[Number(value)] ?? "")
            : type === "inlineStr"
              ? all(c, "t")
                  .map((t) => t.textContent ?? "")
                  .join("")
              : value;
        cells[c.getAttribute("r") ? column(c.getAttribute("r")!) : cells.length] = text.trim();
      }
      return Array.from(cells, (cell) => cell ?? "");
    })
    .filter((row) => row.some(Boolean));
}
