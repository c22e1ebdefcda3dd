import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, jsonBody, noContent } from "../../../lib/openapi";
import { deleteFaqsOf } from "../../../services/knowledge/faqs";
import { knowledgeBaseWith } from "../access";
import { FaqBatchDelete, FaqsParams, KNOWLEDGE_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/knowledge-bases/{knowledgeBaseId}/faqs/batch-delete/",
  tags: [KNOWLEDGE_TAG],
  summary: "Delete several FAQs",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see. Up to 1,000 ids; ids that are not FAQs " +
    "of this knowledge base are ignored.",
  request: { params: FaqsParams, ...jsonBody(FaqBatchDelete) },
  responses: { 204: noContent, ...errorResponses(400, 403, 404) },
});

export const registerBatchDeleteFaqs = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { kb } = await knowledgeBaseWith(c, c.req.valid("param").knowledgeBaseId, "knowledge_base.manage");
    await deleteFaqsOf(c.env, db, kb, c.req.valid("json").ids);
    return c.body(null, 204);
  });
