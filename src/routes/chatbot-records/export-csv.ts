import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { csvDownload } from "../../lib/csv";
import { recordsCsv } from "../../services/statistics/records-export";
import { chatbotWith } from "../statistics/access";
import { ChatbotParams } from "../statistics/schema";
import { recordFilters } from "./filters";
import { RECORDS_TAG, RecordFilterQuery } from "./schema";
import { dataParts } from "../../services/shards/parts";

const route = createRoute({
  method: "get",
  path: "/chatbots/{chatbotPk}/records/export-csv/",
  tags: [RECORDS_TAG],
  summary: "Download an assistant's records as CSV",
  description:
    "Needs `conversation.view` and access to the assistant. The list's rows and filters, newest first, every one " +
    "of them: the file is streamed as the records are read, a page at a time. The columns of `export-excel/`: " +
    "Asked at (ISO 8601, UTC), Question, Answer, Context, Reply time (s), Error, Conversation, Contact, and with " +
    "`enableEvaluation` one column per score (0..1). UTF-8 with a byte order mark, lines ended by CRLF, fields " +
    "quoted as RFC 4180 says; a text starting with `=`, `+`, `-`, `@`, a tab or a carriage return starts with `'` " +
    "instead, so that a spreadsheet opening the file shows it rather than runs it as a formula.",
  request: { params: ChatbotParams, query: RecordFilterQuery },
  responses: {
    200: {
      description: "The records, as an attachment `records-<startDate>-<endDate>.csv`",
      headers: {
        "Content-Disposition": { description: 'attachment; filename="..."', schema: { type: "string" as const } },
      },
      content: { "text/csv": { schema: { type: "string" as const } } },
    },
    ...errorResponses(400, 403, 404),
  },
});

export const registerExportChatbotRecordsCsv = (r: Router) =>
  r.openapi(route, async (c) => {
    const { access, chatbot } = await chatbotWith(c, c.req.valid("param").chatbotPk, "conversation.view");
    const q = c.req.valid("query");
    const parts = await dataParts(c.env, access.organizationId);
    const body = await recordsCsv(c.env, parts, recordFilters(chatbot.id, q), chatbot.enableEvaluation);
    return csvDownload(body, `records-${q.startDate}-${q.endDate}.csv`);
  });
