import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { fieldError } from "../../lib/errors";
import { bodyPageParams, pageOf, pageResponse } from "../../lib/pagination";
import { currentAccess } from "../../services/access";
import { modelApiError } from "../../services/llm/errors";
import { searchableKnowledgeOf } from "../../services/chatbots/knowledge";
import { queryScope } from "../../services/knowledge/query-scope";
import { searchKnowledge, serverTiming } from "../../services/knowledge/retrieval/search";
import { SearchResultSchema, searchResult } from "../../services/records/search-results";
import { ChatbotSearchBody, ChatbotSearchQuery } from "../knowledge-bases/search-schema";
import { CHATBOTS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/chatbots/{id}/search/",
  tags: [CHATBOTS_TAG],
  summary: "Search an assistant's knowledge",
  description:
    "What the assistant would retrieve for a question from the knowledge bases linked to it that you can also " +
    "see (owner, creator, or `knowledge_base.view` through one of their groups: seeing an assistant does not open " +
    "its knowledge bases), each with its own settings, best first, at most the " +
    "assistant's numberOfRetrievedChunks, in page form. `query` (and the other parameters) in the JSON body " +
    "or the query string; the body wins, but for `page` and `pageSize`, where the query string's win (they are " +
    "what `next` and `previous` set).",
  request: {
    params: IdParams,
    query: ChatbotSearchQuery,
    body: {
      required: false,
      content: { "application/json": { schema: ChatbotSearchBody } },
      description: "Search parameters (optional when given in the query string)",
    },
  },
  responses: {
    200: json(pageOf(SearchResultSchema, "AssistantSearchResultPage"), "Results, best first"),
    ...errorResponses(400, 403, 404, 502),
  },
});

export const registerSearchChatbot = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await currentAccess(c);
    const { bot, knowledgeBases } = await searchableKnowledgeOf({
      db,
      access,
      userId: c.var.principal.userId,
      chatbotId: c.req.valid("param").id,
    });
    const q = c.req.valid("query");
    const body = (c.req.header("Content-Type") ? c.req.valid("json") : undefined) ?? {};
    const query = body.query ?? q.query?.trim();
    if (!query) throw fieldError("query", "Required, in the body or the query string.");
    const timings: Record<string, number> = {};
    const requested = body.largeLanguageModel ?? q.largeLanguageModel;
    const hits = await searchKnowledge(c.env, db, knowledgeBases, {
      query,
      method: body.searchMethod,
      scope: queryScope(body.queryMetadata),
      timings,
      limit: bot.numberOfRetrievedChunks,
      languageModelId: bot.largeLanguageModelId,
      requestedLanguageModel: requested ? { id: requested, organizationId: access.organizationId } : undefined,
    }).catch((err) => {
      // A provider's failure (HyDE's model, an embedding model) is the documented 502, not a server error.
      throw modelApiError(err);
    });
    c.header("Server-Timing", serverTiming(timings));
    const p = bodyPageParams(c, q, body);
    return c.json(
      pageResponse(
        c,
        p,
        hits.length,
        hits.slice(p.offset, p.offset + p.limit).map((h) => searchResult(h, query)),
      ),
      200,
    );
  });
