import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { batchQaRecordOf, findVisibleBatchQa } from "../../services/batch-qa/views";
import { BatchQaSchema } from "../../services/records/batch-qas";
import { BATCH_QA_TAG, BatchQaParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/web-chats/{webchatPk}/batch-qas/{id}/",
  tags: [BATCH_QA_TAG],
  summary: "A batch QA run and its progress",
  description: "Needs `chatbot.view` and access to the run's assistant (else 404).",
  request: { params: BatchQaParams },
  responses: { 200: json(BatchQaSchema, "The batch"), ...errorResponses(403, 404) },
});

export const registerGetBatchQa = (r: Router) =>
  r.openapi(route, async (c) => {
    const { webchatPk, id } = c.req.valid("param");
    const access = await authorize(c, "chatbot.view");
    const found = await findVisibleBatchQa(c.var.db, access, c.var.principal.userId, webchatPk, id);
    return c.json(await batchQaRecordOf(c.var.db, found.batch, found.chatbotName), 200);
  });
