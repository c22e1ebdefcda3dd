import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { findVisibleBatchQa, listBatchQaItems } from "../../services/batch-qa/views";
import { BatchQaItemSchema } from "../../services/records/batch-qas";
import { BATCH_QA_TAG, BatchQaParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/web-chats/{webchatPk}/batch-qas/{id}/items/",
  tags: [BATCH_QA_TAG],
  summary: "A batch QA run's questions, answers and scores",
  description:
    "Needs `chatbot.view` and access to the run's assistant (else 404). In the file's order; the same rows as " +
    "`export-excel/`, as JSON. " +
    "Questions not answered yet have status `pending`.",
  request: { params: BatchQaParams, query: PageQuery },
  responses: {
    200: json(pageOf(BatchQaItemSchema, "BatchQaItemPage"), "Page of the run's questions"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerBatchQaItems = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { webchatPk, id } = c.req.valid("param");
    const access = await authorize(c, "chatbot.view");
    const { batch } = await findVisibleBatchQa(db, access, c.var.principal.userId, webchatPk, id);
    const p = pageParams(c.req.valid("query"));
    const found = await listBatchQaItems(db, batch, p);
    return c.json(pageResponse(c, p, found.count, found.items), 200);
  });
