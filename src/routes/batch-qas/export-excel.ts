import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { batchQaSheet } from "../../services/batch-qa/export";
import { xlsxDownload, xlsxResponse } from "../../lib/xlsx";
import { authorize } from "../../services/access";
import { findVisibleBatchQa } from "../../services/batch-qa/views";
import { BATCH_QA_TAG, BatchQaParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/web-chats/{webchatPk}/batch-qas/{id}/export-excel/",
  tags: [BATCH_QA_TAG],
  summary: "Download a batch QA run's questions, answers and scores (.xlsx)",
  description:
    "Needs `chatbot.view` and access to the run's assistant (else 404). One row per question, in the file's order: " +
    "#, Question, " +
    "Expected answer, Answer, Citations (file names), Reply time (s), Status, Error, then the scores as " +
    "numbers (0..1): Answer " +
    "correctness and Answer similarity (with an expected answer), Faithfulness, Answer relevancy, Context " +
    "precision, Context recall. " +
    "Questions not answered yet have status `pending`.",
  request: { params: BatchQaParams },
  responses: {
    200: xlsxResponse("The spreadsheet, as an attachment `batch-qa-<id>.xlsx`"),
    ...errorResponses(403, 404),
  },
});

export const registerExportBatchQa = (r: Router) =>
  r.openapi(route, async (c) => {
    const { webchatPk, id } = c.req.valid("param");
    const access = await authorize(c, "chatbot.view");
    const { batch } = await findVisibleBatchQa(c.var.db, access, c.var.principal.userId, webchatPk, id);
    const { header, rows } = await batchQaSheet(c.var.db, batch.id);
    return xlsxDownload(header, rows, `batch-qa-${batch.id}.xlsx`, "Batch QA");
  });
