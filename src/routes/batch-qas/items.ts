import { createRoute } from "@hono/zod-openapi";
import { and, asc, count, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { batchQaItems } from "../../db/schema";
import { batchQaItemRecord } from "../../services/records/batch-qas";
import { batchQaOf } from "./access";
import { BATCH_QA_TAG, BatchQaItemSchema, BatchQaParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/web-chats/{webchatPk}/batch-qas/{id}/items/",
  tags: [BATCH_QA_TAG],
  summary: "A batch QA run's questions, answers and scores",
  description:
    "Needs `chatbot.view` and access to the web chat's assistant. In the file's order; the same rows as `export-excel/`, as JSON. " +
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
    const { batch } = await batchQaOf(c, webchatPk, id);
    const p = pageParams(c.req.valid("query"));
    const where = and(eq(batchQaItems.batchQaId, batch.id), eq(batchQaItems.organizationId, batch.organizationId));
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(batchQaItems).where(where),
      db.select().from(batchQaItems).where(where).orderBy(asc(batchQaItems.position)).limit(p.limit).offset(p.offset),
    ]);
    return c.json(pageResponse(c, p, n, rows.map(batchQaItemRecord)), 200);
  });
