import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getKnowledgeBaseForRead } from "../../services/knowledge/knowledge-bases";
import { deleteKnowledgeBase } from "../../services/knowledge/content";
import { KNOWLEDGE_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/knowledge-bases/{id}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Delete a knowledge base",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see. Its files, FAQs, labels and text nodes " +
    "go with it at once; " +
    "their vectors and stored file bytes are removed in the background. Assistants using it stop retrieving from it.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteKnowledgeBase = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "knowledge_base.manage");
    const row = await getKnowledgeBaseForRead(c.var.db, access, c.var.principal.userId, c.req.valid("param").id);
    await deleteKnowledgeBase(c.env, c.var.db, row.id);
    return c.body(null, 204);
  });
