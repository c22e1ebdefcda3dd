import { createRoute } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import type { Router } from "../../../lib/openapi";
import { errorResponses, jsonBody, noContent } from "../../../lib/openapi";
import { faqs } from "../../../db/schema";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForUpdate } from "../../../services/knowledge-bases";
import { deleteFaqs } from "../../../services/knowledge-content";
import { FaqBatchDelete, FaqsParams, KNOWLEDGE_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/knowledge-bases/{knowledgeBaseId}/faqs/batch-delete/",
  tags: [KNOWLEDGE_TAG],
  summary: "Delete several FAQs",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see. Up to 1,000 ids; ids that are not FAQs of this knowledge base are ignored.",
  request: { params: FaqsParams, ...jsonBody(FaqBatchDelete) },
  responses: { 204: noContent, ...errorResponses(400, 403, 404) },
});

export const registerBatchDeleteFaqs = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await currentAccess(c);
    const kb = await getKnowledgeBaseForUpdate(
      db,
      access,
      c.var.principal.userId,
      c.req.valid("param").knowledgeBaseId,
    );
    const { ids } = c.req.valid("json");
    // Only this knowledge base's ids reach the vector store, so another base's vectors are never touched.
    const own = await db
      .select({ id: faqs.id })
      .from(faqs)
      .where(
        and(eq(faqs.knowledgeBaseId, kb.id), sql`${faqs.id} in (select value from json_each(${JSON.stringify(ids)}))`),
      );
    await deleteFaqs(
      c.env,
      db,
      kb.id,
      own.map((f) => f.id),
    );
    return c.body(null, 204);
  });
