import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../../lib/pagination";
import { listLabels } from "../../../services/knowledge/labels";
import { LabelSchema } from "../../../services/records/knowledge-labels";
import { knowledgeBaseWith } from "../access";
import { KNOWLEDGE_TAG, LabelListQuery, LabelsParams } from "./schema";

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
    const { kb } = await knowledgeBaseWith(c, c.req.valid("param").knowledgeBaseId);
    const { query, ...page } = c.req.valid("query");
    const p = pageParams(page);
    const found = await listLabels(db, kb, query, p);
    return c.json(pageResponse(c, p, found.count, found.items), 200);
  });
