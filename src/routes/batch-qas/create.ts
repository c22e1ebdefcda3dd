import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { startBatchQaRun } from "../../services/batch-qa/start";
import { authorize } from "../../services/access";
import { BatchQaSchema } from "../../services/records/batch-qas";
import { BATCH_QA_TAG, BatchQaCreateBody, WebChatParams } from "./schema";

const route = createRoute({
  method: "post",
  path: "/web-chats/{webchatPk}/batch-qas/",
  tags: [BATCH_QA_TAG],
  summary: "Run a spreadsheet of questions through a web chat's assistant",
  description:
    "Needs `chatbot.manage` and access to the web chat's assistant. `file` is an .xlsx (first sheet) or .csv " +
    "you uploaded (or a conversation's attachment, with `conversation.view`) within the " +
    "`batchQa` file spec: a header row naming a `question` column (and optionally `expected answer`), or " +
    "questions in the first column " +
    "and expected answers in the second; at most 1,000 questions. Answered in the background, without storing " +
    "conversations; " +
    "follow `GET .../batch-qas/{id}/` and download the results with `export-excel/`. Refused (403) once the plan's " +
    "words of the month are used or the plan has expired, as a completion is; questions still waiting then fail, " +
    "saying why.",
  request: { params: WebChatParams, ...jsonBody(BatchQaCreateBody) },
  responses: { 201: json(BatchQaSchema, "The batch, pending"), ...errorResponses(400, 403, 404, 413, 415) },
});

export const registerCreateBatchQa = (r: Router) =>
  r.openapi(route, async (c) => {
    const { webchatPk } = c.req.valid("param");
    const access = await authorize(c, "chatbot.manage");
    const caller = { access, userId: c.var.principal.userId, data: c.var.data };
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    const origin = new URL(c.req.url).origin;
    const record = await startBatchQaRun(c.env, c.var.db, caller, waitUntil, webchatPk, origin, c.req.valid("json"));
    return c.json(record, 201);
  });
