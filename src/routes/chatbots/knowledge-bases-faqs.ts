import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { listChatbotKnowledgeFaqs } from "../../services/chatbots/knowledge";
import { FaqSchema } from "../../services/records/faqs";
import { CHATBOT_KNOWLEDGE_DESCRIPTION, ChatbotKnowledgeQuery, knowledgeOf } from "./knowledge-bases-files";
import { CHATBOTS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/chatbots/{id}/knowledge-bases-faqs/",
  tags: [CHATBOTS_TAG],
  summary: "List the FAQs an assistant answers from",
  description: `The FAQs of the assistant's knowledge bases. ${CHATBOT_KNOWLEDGE_DESCRIPTION}`,
  request: { params: IdParams, query: ChatbotKnowledgeQuery },
  responses: { 200: json(pageOf(FaqSchema, "ChatbotKnowledgeFaqPage"), "Page of FAQs"), ...errorResponses(400, 404) },
});

export const registerListChatbotKnowledgeFaqs = (r: Router) =>
  r.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const p = pageParams(q);
    const page = await listChatbotKnowledgeFaqs(await knowledgeOf(c, c.req.valid("param").id), q, p);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
