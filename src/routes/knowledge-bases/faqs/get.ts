import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { FaqSchema, faqRecord } from "../../../services/records/faqs";
import { getFaq } from "../../../services/knowledge/faqs";
import { knowledgeBaseWith } from "../access";
import { FaqParams, KNOWLEDGE_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/knowledge-bases/{knowledgeBaseId}/faqs/{faqId}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Get an FAQ",
  description: "Needs a knowledge base you can see; an FAQ of another knowledge base is a 404.",
  request: { params: FaqParams },
  responses: { 200: json(FaqSchema, "The FAQ"), ...errorResponses(403, 404) },
});

export const registerGetFaq = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId, faqId } = c.req.valid("param");
    const { kb } = await knowledgeBaseWith(c, knowledgeBaseId);
    return c.json(await faqRecord(db, kb, await getFaq(db, kb, faqId)), 200);
  });
