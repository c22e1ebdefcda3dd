import { createRoute } from "@hono/zod-openapi";
import { and, asc, count, eq } from "drizzle-orm";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../../lib/pagination";
import { contains } from "../../../lib/sql";
import { knowledgeBaseLabels } from "../../../db/schema";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForRead } from "../../../services/knowledge-bases";
import { labelColumns } from "../../../services/knowledge-labels";
import { labelRecord } from "../../../services/records/knowledge-labels";
import { KNOWLEDGE_TAG, LabelListQuery, LabelSchema, LabelsParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/knowledge-bases/{knowledgeBaseId}/labels/",
  tags: [KNOWLEDGE_TAG],
  summary: "List the labels of a knowledge base",
  description: "Ordered by name. Needs a knowledge base you can see. Filter: `query` (name contains).",
  request: { params: LabelsParams, query: LabelListQuery },
  responses: {
    200: json(pageOf(LabelSchema, "KnowledgeBaseLabelPage"), "Page of labels"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListLabels = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await currentAccess(c);
    const kb = await getKnowledgeBaseForRead(db, access, c.var.principal.userId, c.req.valid("param").knowledgeBaseId);
    const q = c.req.valid("query");
    const p = pageParams(q);
    const where = and(
      eq(knowledgeBaseLabels.knowledgeBaseId, kb.id),
      q.query ? contains(knowledgeBaseLabels.name, q.query) : undefined,
    );
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(knowledgeBaseLabels).where(where),
      db
        .select(labelColumns)
        .from(knowledgeBaseLabels)
        .where(where)
        .orderBy(asc(knowledgeBaseLabels.name), asc(knowledgeBaseLabels.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    return c.json(
      pageResponse(
        c,
        p,
        n,
        rows.map((row) => labelRecord(kb, row)),
      ),
      200,
    );
  });
