import { createRoute } from "@hono/zod-openapi";
import { and, count, desc, eq } from "drizzle-orm";
import { faqs, knowledgeBases } from "../../db/schema";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { contains } from "../../lib/sql";
import type { KnowledgeBaseRow } from "../../services/knowledge-bases";
import { faqRecords, type FaqRecord } from "../../services/records/faqs";
import type { FaqRow } from "../../services/faqs";
import { FaqSchema } from "../../services/records/faqs";
import { CHATBOT_KNOWLEDGE_DESCRIPTION, ChatbotKnowledgeQuery, chatbotKnowledgeScope } from "./knowledge-bases-files";
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
    const db = c.var.db;
    const q = c.req.valid("query");
    const p = pageParams(q);
    const scope = await chatbotKnowledgeScope(c, c.req.valid("param").id, q.source);
    if (!scope) return c.json(pageResponse(c, p, 0, [] as FaqRecord[]), 200);
    const where = and(scope, q.query ? contains(faqs.question, q.query) : undefined);
    const join = eq(knowledgeBases.id, faqs.knowledgeBaseId);
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(faqs).innerJoin(knowledgeBases, join).where(where),
      db
        .select({ faq: faqs, kb: knowledgeBases })
        .from(faqs)
        .innerJoin(knowledgeBases, join)
        .where(where)
        .orderBy(desc(faqs.createdAt), desc(faqs.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    // `faqRecords` maps the FAQs of one knowledge base; group the page by base, then keep its order.
    const byBase = new Map<string, { kb: KnowledgeBaseRow; rows: FaqRow[] }>();
    for (const { faq, kb } of rows)
      (byBase.get(kb.id) ?? byBase.set(kb.id, { kb, rows: [] }).get(kb.id)!).rows.push(faq);
    const mapped = new Map(
      (await Promise.all([...byBase.values()].map(({ kb, rows }) => faqRecords(db, kb, rows))))
        .flat()
        .map((f) => [f.id, f]),
    );
    return c.json(
      pageResponse(
        c,
        p,
        n,
        rows.map(({ faq }) => mapped.get(faq.id)!),
      ),
      200,
    );
  });
