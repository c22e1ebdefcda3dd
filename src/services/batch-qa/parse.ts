import Papa from "papaparse";
import { strFromU8, unzipSync } from "fflate";
import { fieldError } from "../../lib/errors";

/** Most questions one batch may hold. */
export const MAX_QUESTIONS = 1_000;

export interface QaRow {
  question: string;
  expectedAnswer: string | null;
}

const QUESTION_HEADERS = /^(question|questions|query|input|問題|问题)$/i;
const ANSWER_HEADERS = /^(expected[ _-]?answer|answer|reference|ground[ _-]?truth|標準答案|标准答案|答案)$/i;

/**
 * Questions and optional expected answers of a .csv or .xlsx (first sheet). A header row naming a
 * `question` column (and an `expected answer` one) chooses the columns; without one, the first
 * column holds the questions and the second the expected answers. Empty questions are skipped.
 */
export function parseQuestions(filename: string, bytes: ArrayBuffer, field = "file"): QaRow[] {
  const table = /\.xlsx$/i.test(filename) ? readSheet(bytes, field) : readCsv(bytes);
  const header = table[0]?.map((c) => c.trim()) ?? [];
  let q = header.findIndex((h) => QUESTION_HEADERS.test(h));
  let a = header.findIndex((h) => ANSWER_HEADERS.test(h));
  const body = q >= 0 ? table.slice(1) : table;
  if (q < 0) [q, a] = [0, 1];
  const rows = body
    .map((r) => ({ question: (r[q] ?? "").trim(), expectedAnswer: a >= 0 ? (r[a] ?? "").trim() || null : null }))
    .filter((r) => r.question);
  if (!rows.length)
    throw fieldError(field, "The file holds no questions (a `question` column, or questions in the first column).");
  if (rows.length > MAX_QUESTIONS)
    throw fieldError(field, `The file holds ${rows.length} questions; at most ${MAX_QUESTIONS}.`);
  return rows.map((r) => ({
    question: r.question.slice(0, 8000),
    expectedAnswer: r.expectedAnswer?.slice(0, 8000) ?? null,
  }));
}

function readCsv(bytes: ArrayBuffer): string[][] {
  const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, "");
  return Papa.parse<string[]>(text, { skipEmptyLines: true }).data.map((r) => r.map(String));
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(+n))
    .replace(/&amp;/g, "&");

/** The first sheet's cells as text (shared and inline strings, numbers as written). */
function readSheet(bytes: ArrayBuffer, field: string): string[][] {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(new Uint8Array(bytes), {
      filter: (f) =>
        f.name === "xl/sharedStrings.xml" || f.name.startsWith("xl/worksheets/sheet") || f.name === "xl/workbook.xml",
    });
  } catch {
    throw fieldError(field, "The file is not a readable .xlsx workbook.");
  }
  const sheetName = Object.keys(files)
    .filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n))
    .sort()[0];
  if (!sheetName) throw fieldError(field, "The file is not a readable .xlsx workbook.");
  const shared = files["xl/sharedStrings.xml"]
    ? [...strFromU8(files["xl/sharedStrings.xml"]).matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
        decode([...m[1].matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join("")),
      )
    : [];
  const rows: string[][] = [];
  for (const row of strFromU8(files[sheetName]).matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)) {
    const cells: string[] = [];
    for (const cell of row[1].matchAll(/<c([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const ref = /r="([A-Z]+)\d+"/.exec(cell[1])?.[1];
      const col = ref ? [...ref].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1 : cells.length;
      const type = /t="(\w+)"/.exec(cell[1])?.[1];
      const raw = /<v>([\s\S]*?)<\/v>/.exec(cell[2] ?? "")?.[1];
      const inline = /<is>([\s\S]*?)<\/is>/.exec(cell[2] ?? "")?.[1];
      let value = "";
      if (type === "s") value = shared[Number(raw)] ?? "";
      else if (type === "inlineStr")
        value = decode([...(inline ?? "").matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join(""));
      else if (raw !== undefined) value = decode(raw);
      cells[col] = value;
    }
    rows.push(Array.from(cells, (c) => c ?? ""));
  }
  return rows;
}
