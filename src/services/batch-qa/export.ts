// A batch QA run as a spreadsheet: its scores are titled as the records' exports title them (METRIC_TITLES).
import type { Row } from "write-excel-file/node";
import type { Db } from "../../env";
import type { EvaluationMetric } from "../records/chatbot-records";
import { citedFiles } from "../records/batch-qas";
import { METRIC_TITLES } from "../statistics/records-export";
import { batchQaItemsOf } from ".";

/** The scores in the sheet's order: the two against the expected answer first. */
const SCORES = [
  "answerCorrectness",
  "answerSimilarity",
  "faithfulness",
  "answerRelevancy",
  "contextPrecision",
  "contextRecall",
] as const satisfies readonly EvaluationMetric[];

/** A number cell (empty for null) shown with `format`. */
const num = (value: number | null, format = "0.00") => (value === null ? null : { value, type: Number, format });

/**
 * The batch's questions as the spreadsheet's rows (`xlsxDownload`'s `header` and `rows`), in the file's order: the
 * question, expected answer, answer, cited file names, reply time, status and error, then the scores as numbers.
 */
export async function batchQaSheet(db: Db, batchQaId: string): Promise<{ header: string[]; rows: Row[] }> {
  const items = await batchQaItemsOf(db, batchQaId);
  const header = [
    "#",
    "Question",
    "Expected answer",
    "Answer",
    "Citations",
    "Reply time (s)",
    "Status",
    "Error",
    ...SCORES.map((m) => METRIC_TITLES[m]),
  ];
  const rows = items.map((i) => [
    { value: i.position, type: Number },
    i.question,
    i.expectedAnswer,
    i.answer,
    citedFiles(i.citations).join(", ") || null,
    num(i.replyMs === null ? null : i.replyMs / 1000, "0.000"),
    i.status,
    i.error,
    ...SCORES.map((m) => num(i[m])),
  ]);
  return { header, rows };
}
