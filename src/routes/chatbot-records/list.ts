import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageParams, pageResponse } from "../../lib/pagination";
import { chatbotRecord } from "../../services/records/chatbot-records";
import { listChatbotRecords } from "../../services/statistics/records";
import { chatbotWith } from "../statistics/access";
import { ChatbotParams } from "../statistics/schema";
import { recordFilters } from "./filters";
import { ChatbotRecordPage, RECORDS_TAG, RecordListQuery } from "./schema";
import { dataParts } from "../../services/shards/parts";

const route = createRoute({
  method: "get",
  path: "/chatbots/{chatbotPk}/records/",
  tags: [RECORDS_TAG],
  summary: "The questions an assistant answered, with answers, context, reply times and evaluation scores",
  description:
    "Needs `conversation.view` and access to the assistant. One record per question (failed replies carry " +
    "`error`), newest first, " +
    "asked between `startDate` and `endDate` (local days in `timezone`, both included). Scores appear when " +
    "the assistant has `enableEvaluation`.",
  request: { params: ChatbotParams, query: RecordListQuery },
  responses: { 200: json(ChatbotRecordPage, "A page of records"), ...errorResponses(400, 403, 404) },
});

export const registerListChatbotRecords = (r: Router) =>
  r.openapi(route, async (c) => {
    const { access, chatbot } = await chatbotWith(c, c.req.valid("param").chatbotPk, "conversation.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const parts = await dataParts(c.env, access.organizationId);
    const page = await listChatbotRecords(c.env, parts, recordFilters(chatbot.id, q), p);
    return c.json(
      pageResponse(
        c,
        p,
        page.count,
        page.items.map((row) => chatbotRecord(row, chatbot.enableEvaluation)),
      ),
      200,
    );
  });
