import { createRoute } from "@hono/zod-openapi";
import { and, count, desc, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { contains } from "../../lib/sql";
import { knowledgeBases } from "../../db/schema";
import { currentAccess } from "../../services/access";
import { knowledgeBaseViews, visibleKnowledgeBasesCondition } from "../../services/knowledge-bases";
import { storedCredentialNames } from "../../services/vector-database";
import { knowledgeBaseRecord } from "../../services/records/knowledge-bases";
import { KNOWLEDGE_TAG, KnowledgeBaseListQuery, KnowledgeBaseSchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/knowledge-bases/",
  tags: [KNOWLEDGE_TAG],
  summary: "List the knowledge bases you can see",
  description:
    "Newest first, in the current organization: all of them for owners; for other members those they created and, with `knowledge_base.view`, " +
    "those given to one of their groups. Filters: `embeddingModel`, `rerankerModel`, `query` (name contains).",
  request: { query: KnowledgeBaseListQuery },
  responses: {
    200: json(pageOf(KnowledgeBaseSchema, "KnowledgeBasePage"), "Page of knowledge bases"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListKnowledgeBases = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await currentAccess(c);
    const q = c.req.valid("query");
    const p = pageParams(q);
    const where = and(
      visibleKnowledgeBasesCondition(access, c.var.principal.userId),
      q.embeddingModel ? eq(knowledgeBases.embeddingModelId, q.embeddingModel) : undefined,
      q.rerankerModel ? eq(knowledgeBases.rerankerModelId, q.rerankerModel) : undefined,
      q.query ? contains(knowledgeBases.name, q.query) : undefined,
    );
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(knowledgeBases).where(where),
      db
        .select()
        .from(knowledgeBases)
        .where(where)
        .orderBy(desc(knowledgeBases.createdAt), desc(knowledgeBases.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    const views = await knowledgeBaseViews(db, access, c.var.principal.userId, rows);
    const records = await Promise.all(
      views.map(async (v) => knowledgeBaseRecord(v, await storedCredentialNames(v.row, c.env))),
    );
    return c.json(pageResponse(c, p, n, records), 200);
  });
