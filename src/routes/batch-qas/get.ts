import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { batchQaOf, batchQaView } from "./access";
import { BATCH_QA_TAG, BatchQaParams, BatchQaSchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/web-chats/{webchatPk}/batch-qas/{id}/",
  tags: [BATCH_QA_TAG],
  summary: "A batch QA run and its progress",
  description: "Needs `chatbot.view` and access to the web chat's assistant.",
  request: { params: BatchQaParams },
  responses: { 200: json(BatchQaSchema, "The batch"), ...errorResponses(403, 404) },
});

export const registerGetBatchQa = (r: Router) =>
  r.openapi(route, async (c) => {
    const { webchatPk, id } = c.req.valid("param");
    const { batch, chatbotName } = await batchQaOf(c, webchatPk, id);
    return c.json(await batchQaView(c, batch, chatbotName), 200);
  });
