import { createRoute } from "@hono/zod-openapi";
import { and, count, desc, eq, or, sql } from "drizzle-orm";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../../lib/pagination";
import { contains } from "../../../lib/sql";
import { faqLabels, faqs } from "../../../db/schema";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForRead } from "../../../services/knowledge-bases";
import { faqRecords } from "../../../services/records/faqs";
import { FaqListQuery, FaqSchema, FaqsParams, KNOWLEDGE_TAG } from "./schema";

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
    const access = await currentAccess(c);
    const kb = await getKnowledgeBaseForRead(db, access, c.var.principal.userId, c.req.valid("param").knowledgeBaseId);
    const q = c.req.valid("query");
    const p = pageParams(q);
    const where = and(
      eq(faqs.knowledgeBaseId, kb.id),
      q.query ? or(contains(faqs.question, q.query), contains(faqs.answer, q.query)) : undefined,
      // One bound parameter however many labels are asked for (D1 binds at most 100).
      q.labels
        ? sql`exists (select 1 from ${faqLabels} where ${faqLabels.faqId} = ${faqs.id} and ${faqLabels.labelId} in (select value from json_each(${JSON.stringify(q.labels)})))`
        : undefined,
    );
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(faqs).where(where),
      db.select().from(faqs).where(where).orderBy(desc(faqs.createdAt), desc(faqs.id)).limit(p.limit).offset(p.offset),
    ]);
    return c.json(pageResponse(c, p, n, await faqRecords(db, kb, rows)), 200);
  });
