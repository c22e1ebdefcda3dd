import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { recordsSheet } from "../../services/statistics/records-export";
import { xlsxDownload, xlsxResponse } from "../../lib/xlsx";
import { chatbotWith } from "../statistics/access";
import { ChatbotParams } from "../statistics/schema";
import { recordFilters } from "./filters";
import { RECORDS_TAG, RecordFilterQuery } from "./schema";
import { dataParts } from "../../services/shards/parts";

const route = createRoute({
  method: "get",
  path: "/chatbots/{chatbotPk}/records/export-excel/",
  tags: [RECORDS_TAG],
  summary: "Download an assistant's records as a spreadsheet (.xlsx)",
  description:
    "Needs `conversation.view` and access to the assistant. The list's rows and filters, newest first: " +
    "Asked at (a date-time cell, UTC), Question, Answer, Context, Reply time (s) (a number), Error, " +
    "Conversation, Contact, " +
    "and with `enableEvaluation` one number column per score (0..1). A text cell holds at most 32,767 characters " +
    "(Excel's limit; a longer text is cut, ending in `… (cut)`). The spreadsheet is built whole in memory, so it " +
    "holds at most 8 MiB of cells (each cell's text in UTF-8 plus 64 bytes, a few thousand records with long " +
    "contexts): past that the answer is a 400 `export_too_large`, and `export-csv/` streams any number of records.",
  request: { params: ChatbotParams, query: RecordFilterQuery },
  responses: {
    200: xlsxResponse("The spreadsheet, as an attachment `records-<startDate>-<endDate>.xlsx`"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerExportChatbotRecords = (r: Router) =>
  r.openapi(route, async (c) => {
    const { access, chatbot } = await chatbotWith(c, c.req.valid("param").chatbotPk, "conversation.view");
    const q = c.req.valid("query");
    const parts = await dataParts(c.env, access.organizationId);
    const filters = recordFilters(chatbot.id, q);
    const { header, rows } = await recordsSheet(c.env, parts, filters, chatbot.enableEvaluation);
    return xlsxDownload(header, rows, `records-${q.startDate}-${q.endDate}.xlsx`, "Records");
  });
