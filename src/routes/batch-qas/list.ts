import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { listBatchQas } from "../../services/batch-qa/views";
import { BatchQaSchema } from "../../services/records/batch-qas";
import { BATCH_QA_TAG, WebChatParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/web-chats/{webchatPk}/batch-qas/",
  tags: [BATCH_QA_TAG],
  summary: "List a web chat's batch QA runs",
  description:
    "Needs `chatbot.view`. Newest first, with their progress; only runs of assistants the caller sees " +
    "(owners: all).",
  request: { params: WebChatParams, query: PageQuery },
  responses: {
    200: json(pageOf(BatchQaSchema, "BatchQaPage"), "Page of batch QA runs"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListBatchQas = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { webchatPk } = c.req.valid("param");
    const access = await authorize(c, "chatbot.view");
    const p = pageParams(c.req.valid("query"));
    const found = await listBatchQas(db, access, c.var.principal.userId, webchatPk, p);
    return c.json(pageResponse(c, p, found.count, found.items), 200);
  });
