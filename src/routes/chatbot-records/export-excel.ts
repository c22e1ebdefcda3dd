import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { EVALUATION_METRICS, contextTexts } from "../../services/records/chatbot-records";
import { exportChatbotRecords } from "../../services/statistics/records";
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
    "Needs `conversation.view` and access to the assistant. The list's rows and filters (at most 50,000, " +
    "newest first): " +
    "Asked at (a date-time cell, UTC), Question, Answer, Context, Reply time (s) (a number), Error, " +
    "Conversation, Contact, " +
    "and with `enableEvaluation` one number column per score (0..1).",
  request: { params: ChatbotParams, query: RecordFilterQuery },
  responses: {
    200: xlsxResponse("The spreadsheet, as an attachment `records-<startDate>-<endDate>.xlsx`"),
    ...errorResponses(400, 403, 404),
  },
});

const METRIC_TITLES: Record<(typeof EVALUATION_METRICS)[number], string> = {
  faithfulness: "Faithfulness",
  answerRelevancy: "Answer relevancy",
  contextPrecision: "Context precision",
  answerCorrectness: "Answer correctness",
  answerSimilarity: "Answer similarity",
  contextRecall: "Context recall",
};

export const registerExportChatbotRecords = (r: Router) =>
  r.openapi(route, async (c) => {
    const { access, chatbot } = await chatbotWith(c, c.req.valid("param").chatbotPk, "conversation.view");
    const q = c.req.valid("query");
    const parts = await dataParts(c.env, access.organizationId);
    const rows = await exportChatbotRecords(c.env, parts, recordFilters(chatbot.id, q));
    const metrics = chatbot.enableEvaluation ? EVALUATION_METRICS : [];
    const header = [
      "Asked at",
      "Question",
      "Answer",
      "Context",
      "Reply time (s)",
      "Error",
      "Conversation",
      "Contact",
      ...metrics.map((m) => METRIC_TITLES[m]),
    ];
    const data = rows.map(({ record: r, contact }) => [
      { value: new Date(r.createdAt), type: Date, format: "yyyy-mm-dd hh:mm:ss" },
      r.inputMessage,
      r.outputMessage,
      contextTexts(r.context).join("\n\n") || null,
      r.replyMs === null ? null : { value: r.replyMs / 1000, type: Number, format: "0.000" },
      r.error,
      r.conversationId,
      contact?.name ?? null,
      ...metrics.map((m) => (r[m] === null ? null : { value: r[m]!, type: Number, format: "0.00" })),
    ]);
    return xlsxDownload(header, data, `records-${q.startDate}-${q.endDate}.xlsx`, "Records");
  });
