import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, noContent } from "../../../lib/openapi";
import { deleteFaqs } from "../../../services/knowledge/content";
import { getFaq } from "../../../services/knowledge/faqs";
import { knowledgeBaseWith } from "../access";
import { FaqParams, KNOWLEDGE_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/knowledge-bases/{knowledgeBaseId}/faqs/{faqId}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Delete an FAQ",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see. The FAQ leaves keyword and vector search at once.",
  request: { params: FaqParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteFaq = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId, faqId } = c.req.valid("param");
    const { kb } = await knowledgeBaseWith(c, knowledgeBaseId, "knowledge_base.manage");
    const faq = await getFaq(db, kb, faqId);
    await deleteFaqs(c.env, db, kb.id, [faq.id]);
    return c.body(null, 204);
  });
