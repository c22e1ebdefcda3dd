import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { getLabel } from "../../../services/knowledge/labels";
import { LabelSchema, labelRecord } from "../../../services/records/knowledge-labels";
import { knowledgeBaseWith } from "../access";
import { KNOWLEDGE_TAG, LabelParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/knowledge-bases/{knowledgeBaseId}/labels/{labelId}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Get a label of a knowledge base",
  description: "Needs a knowledge base you can see; a label of another knowledge base is a 404.",
  request: { params: LabelParams },
  responses: { 200: json(LabelSchema, "The label"), ...errorResponses(403, 404) },
});

export const registerGetLabel = (r: Router) =>
  r.openapi(route, async (c) => {
    const { knowledgeBaseId, labelId } = c.req.valid("param");
    const { kb } = await knowledgeBaseWith(c, knowledgeBaseId);
    return c.json(labelRecord(kb, await getLabel(c.var.db, kb, labelId)), 200);
  });
