import { createRoute } from "@hono/zod-openapi";
import { and, avg, count, desc, eq, inArray } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { batchQaItems, batchQas } from "../../db/schema";
import { batchQaRecord } from "../../services/records/batch-qas";
import { webChatAssistant } from "./access";
import { BATCH_QA_TAG, BatchQaSchema, WebChatParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/web-chats/{webchatPk}/batch-qas/",
  tags: [BATCH_QA_TAG],
  summary: "List a web chat's batch QA runs",
  description: "Needs `chatbot.view` and access to the web chat's assistant. Newest first, with their progress.",
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
    const { access, chatbot } = await webChatAssistant(c, webchatPk, "chatbot.view");
    const p = pageParams(c.req.valid("query"));
    const where = and(eq(batchQas.organizationId, access.organizationId), eq(batchQas.webChatId, webchatPk));
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(batchQas).where(where),
      db
        .select()
        .from(batchQas)
        .where(where)
        .orderBy(desc(batchQas.createdAt), desc(batchQas.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    const averages = rows.length
      ? await db
          .select({ id: batchQaItems.batchQaId, value: avg(batchQaItems.answerCorrectness) })
          .from(batchQaItems)
          .where(
            inArray(
              batchQaItems.batchQaId,
              rows.map((b) => b.id),
            ),
          )
          .groupBy(batchQaItems.batchQaId)
      : [];
    const averageOf = new Map(averages.map((a) => [a.id, a.value === null ? null : Number(a.value)]));
    const records = rows.map((b) =>
      batchQaRecord(b, chatbot?.id === b.chatbotId ? chatbot.name : "", averageOf.get(b.id) ?? null),
    );
    return c.json(pageResponse(c, p, n, records), 200);
  });
