import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../../lib/pagination";
import { listFaqs } from "../../../services/knowledge/faqs";
import { FaqSchema } from "../../../services/records/faqs";
import { knowledgeBaseWith } from "../access";
import { FaqListQuery, FaqsParams, KNOWLEDGE_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/knowledge-bases/{knowledgeBaseId}/faqs/",
  tags: [KNOWLEDGE_TAG],
  summary: "List the FAQs of a knowledge base",
  description:
    "Newest first. Needs a knowledge base you can see. Filters: `query` (question or answer contains), " +
    "`labels` (comma-separated label ids; FAQs carrying any of them).",
  request: { params: FaqsParams, query: FaqListQuery },
  responses: { 200: json(pageOf(FaqSchema, "FaqPage"), "Page of FAQs"), ...errorResponses(400, 403, 404) },
});

export const registerListFaqs = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { kb } = await knowledgeBaseWith(c, c.req.valid("param").knowledgeBaseId);
    const { query, labels, ...page } = c.req.valid("query");
    const p = pageParams(page);
    const found = await listFaqs(db, kb, { query, labels }, p);
    return c.json(pageResponse(c, p, found.count, found.items), 200);
  });
