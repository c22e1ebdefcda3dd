import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { bodyPageParams, PageQuery, pageOf, pageResponse } from "../../lib/pagination";
import { currentAccess } from "../../services/access";
import { getKnowledgeBaseForRead } from "../../services/knowledge/knowledge-bases";
import { queryScope } from "../../services/knowledge/query-scope";
import { searchPage } from "../../services/knowledge/retrieval/search-page";
import { KNOWLEDGE_TAG } from "./schema";
import { KnowledgeBaseParams } from "./files/schema";
import { SearchResultSchema } from "../../services/records/search-results";
import { KnowledgeBaseSearchBody } from "./search-schema";

const route = createRoute({
  method: "post",
  path: "/knowledge-bases/{knowledgeBaseId}/search/",
  tags: [KNOWLEDGE_TAG],
  summary: "Search a knowledge base",
  description:
    "Best first, at most the knowledge base's numberOfRetrievedChunks, in page form. Hybrid search (vector " +
    "and keyword) fused by reciprocal rank fusion " +
    "when enableRrf, reranked when enableRerank (the body's `enableRerank` overrides it for one search), HyDE " +
    "when enableHyde, results at or below similarityCutoff dropped, text nodes widened by sentenceWindowSize. " +
    "FAQs are searched beside the text. `queryMetadata` restricts the search as a contact's does. `page` and " +
    "`pageSize` may be in the body; the query string's win (they are what `next` and `previous` set).",
  request: { params: KnowledgeBaseParams, query: PageQuery, ...jsonBody(KnowledgeBaseSearchBody) },
  responses: {
    200: json(pageOf(SearchResultSchema, "SearchResultPage"), "Results, best first"),
    ...errorResponses(400, 403, 404, 502),
  },
});

export const registerSearchKnowledgeBase = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId } = c.req.valid("param");
    const kb = await getKnowledgeBaseForRead(db, await currentAccess(c), c.var.principal.userId, knowledgeBaseId);
    const body = c.req.valid("json");
    const { query, searchMethod: method, enableRerank: rerank } = body;
    const options = { query, method, rerank, scope: queryScope(body.queryMetadata), limit: kb.numberOfRetrievedChunks };
    const p = bodyPageParams(c, c.req.valid("query"), body);
    const page = await searchPage(c.env, db, [kb], options, p);
    c.header("Server-Timing", page.serverTiming);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
