import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { currentAccess } from "../../services/access";
import { listKnowledgeBases } from "../../services/knowledge/knowledge-bases";
import { KnowledgeBaseSchema } from "../../services/records/knowledge-bases";
import { KNOWLEDGE_TAG, KnowledgeBaseListQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/knowledge-bases/",
  tags: [KNOWLEDGE_TAG],
  summary: "List the knowledge bases you can see",
  description:
    "Newest first, in the current organization: all of them for owners; for other members those they created " +
    "and, with `knowledge_base.view`, " +
    "those given to one of their groups. Filters: `embeddingModel`, `rerankerModel`, `query` (name contains).",
  request: { query: KnowledgeBaseListQuery },
  responses: {
    200: json(pageOf(KnowledgeBaseSchema, "KnowledgeBasePage"), "Page of knowledge bases"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListKnowledgeBases = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    const { embeddingModel, rerankerModel, query, ...page } = c.req.valid("query");
    const p = pageParams(page);
    const filters = { embeddingModel, rerankerModel, query };
    const found = await listKnowledgeBases(c.env, c.var.db, access, c.var.principal.userId, filters, p);
    return c.json(pageResponse(c, p, found.count, found.items), 200);
  });
