// An assistant's records as files: the CSV streams page by page, whatever their number; the .xlsx writer builds the
// whole sheet in memory, so what it is given is bounded by its bytes (docs/decisions.md, "Statistics, records and
// evaluation").
import type { Row } from "write-excel-file/node";
import type { Bindings, Db } from "../../env";
import { ApiError } from "../../lib/errors";
import { rowBytes, withinCellLimit } from "../../lib/xlsx";
import { contextTexts, EVALUATION_METRICS, type EvaluationMetric } from "../records/chatbot-records";
import { type ChatbotRecordView, type RecordFilters, chatbotRecordPages } from "./records";

type Bucket = Pick<Bindings, "FILES">;

/** Most an .xlsx export of records holds, counted by `rowBytes` (its writer needs about three times this). */
export const XLSX_EXPORT_BYTES = 8 * 1024 * 1024;

/** The scores' column titles, in every export of them (records, batch QA runs). */
export const METRIC_TITLES: Record<EvaluationMetric, string> = {
  faithfulness: "Faithfulness",
  answerRelevancy: "Answer relevancy",
  contextPrecision: "Context precision",
  answerCorrectness: "Answer correctness",
  answerSimilarity: "Answer similarity",
  contextRecall: "Context recall",
};

/** A column of the exports: its title, and for a time or a number the spreadsheet's format. */
interface Column {
  title: string;
  format?: string;
}

/** The scores a file shows: every one for an assistant that evaluates its answers, else none. */
const metricsOf = (evaluation: boolean): readonly EvaluationMetric[] => (evaluation ? EVALUATION_METRICS : []);

const columnsOf = (metrics: readonly EvaluationMetric[]): Column[] => [
  { title: "Asked at", format: "yyyy-mm-dd hh:mm:ss" },
  { title: "Question" },
  { title: "Answer" },
  { title: "Context" },
  { title: "Reply time (s)", format: "0.000" },
  { title: "Error" },
  { title: "Conversation" },
  { title: "Contact" },
  ...metrics.map((m) => ({ title: METRIC_TITLES[m], format: "0.00" })),
];

type Value = string | number | Date | null;

/** A record's values, in the columns' order. */
const valuesOf = ({ record: r, contact }: ChatbotRecordView, metrics: readonly EvaluationMetric[]): Value[] => [
  new Date(r.createdAt),
  r.inputMessage,
  r.outputMessage,
  contextTexts(r.context).join("\n\n") || null,
  r.replyMs === null ? null : r.replyMs / 1000,
  r.error,
  r.conversationId,
  contact?.name ?? null,
  ...metrics.map((m) => r[m]),
];

const tooLarge = () =>
  new ApiError(
    400,
    "export_too_large",
    `These records come to more than ${XLSX_EXPORT_BYTES / 1024 / 1024} MiB of cells, the most an .xlsx export ` +
      "holds: download them as CSV (export-csv/), which has no limit, or narrow the dates or filters.",
  );

/**
 * The records' spreadsheet rows (`xlsxDownload`'s `header` and `rows`), with the scores when `evaluation` (the
 * assistant's `enableEvaluation`), read a page at a time: each row is cut to
 * Excel's cell limit as it is read, and a 400 `export_too_large` is thrown once the rows pass XLSX_EXPORT_BYTES,
 * before the writer is given more than that.
 */
export async function recordsSheet(
  env: Bucket,
  parts: Db[],
  f: RecordFilters,
  evaluation: boolean,
): Promise<{ header: string[]; rows: Row[] }> {
  const metrics = metricsOf(evaluation);
  const columns = columnsOf(metrics);
  const rows: Row[] = [];
  let bytes = 0;
  for await (const page of chatbotRecordPages(env, parts, f)) {
    for (const view of page) {
      const row = withinCellLimit(
        valuesOf(view, metrics).map((value, i) =>
          value === null || typeof value === "string"
            ? value
            : { value, type: value instanceof Date ? Date : Number, format: columns[i].format },
        ),
      );
      bytes += rowBytes(row);
      if (bytes > XLSX_EXPORT_BYTES) throw tooLarge();
      rows.push(row);
    }
  }
  return { header: columns.map((c) => c.title), rows };
}

/** RFC 4180's line: fields joined by commas, ended by CRLF. */
const csvLine = (fields: string[]) => `${fields.join(",")}\r\n`;

/**
 * A value as a CSV field: a time in ISO 8601 (UTC), a number as JavaScript writes it, null empty. A text starting as
 * a formula would (=, +, -, @, tab, CR) gets a leading ' so that a spreadsheet opening the file shows it rather than
 * runs it: questions are what visitors typed. A text holding a comma, a quote or a line break is quoted.
 */
function csvField(value: Value): string {
  if (value === null) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The records as CSV (UTF-8 with a byte order mark, so spreadsheets read it as UTF-8), streamed: a page is read when
 * the one before has been taken, so the memory held is a page's whatever the number of records. The first page is
 * read before the stream is answered, so a failure to read is an error answer rather than a cut file.
 */
export async function recordsCsv(
  env: Bucket,
  parts: Db[],
  f: RecordFilters,
  evaluation: boolean,
): Promise<ReadableStream<Uint8Array>> {
  const metrics = metricsOf(evaluation);
  const encoder = new TextEncoder();
  const pages = chatbotRecordPages(env, parts, f);
  const lines = (page: ChatbotRecordView[]) =>
    encoder.encode(page.map((view) => csvLine(valuesOf(view, metrics).map(csvField))).join(""));
  const first = await pages.next();
  const ready = [encoder.encode(`\uFEFF${csvLine(columnsOf(metrics).map((c) => csvField(c.title)))}`)];
  if (!first.done) ready.push(lines(first.value));
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = ready.shift() ?? (await pages.next()).value;
      if (!chunk) controller.close();
      else controller.enqueue(chunk instanceof Uint8Array ? chunk : lines(chunk));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}
