import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, noContent } from "../../../lib/openapi";
import { deleteLabel, getLabel } from "../../../services/knowledge/labels";
import { knowledgeBaseWith } from "../access";
import { KNOWLEDGE_TAG, LabelParams } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/knowledge-bases/{knowledgeBaseId}/labels/{labelId}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Delete a label",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see. Files and FAQs keep existing; they just " +
    "lose the label.",
  request: { params: LabelParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteLabel = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId, labelId } = c.req.valid("param");
    const { kb } = await knowledgeBaseWith(c, knowledgeBaseId, "knowledge_base.manage");
    await deleteLabel(db, await getLabel(db, kb, labelId));
    return c.body(null, 204);
  });
