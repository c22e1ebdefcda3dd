import { fieldError } from "../../lib/errors";
import { ParseError } from "../parsing/errors";
import { csvCells, xlsxCells } from "../parsing/spreadsheet";

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
  const table = readCells(filename, new Uint8Array(bytes), field);
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

/** The file's rows: a .xlsx workbook's first sheet, else CSV text; what cannot be read is a 400 naming `field`. */
function readCells(filename: string, bytes: Uint8Array, field: string): string[][] {
  try {
    return /\.xlsx$/i.test(filename) ? xlsxCells(bytes, { maxColumns: 200, maxRows: 200_000 }) : csvCells(bytes);
  } catch (err) {
    if (err instanceof ParseError) throw fieldError(field, err.message);
    throw err;
  }
}
