import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { fieldError } from "../../lib/errors";
import { bodyPageParams, pageOf, pageResponse } from "../../lib/pagination";
import { currentAccess } from "../../services/access";
import { searchAssistantKnowledge, searchableKnowledgeOf } from "../../services/chatbots/knowledge";
import { SearchResultSchema } from "../../services/records/search-results";
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
    const { id } = c.req.valid("param");
    const knowledge = await searchableKnowledgeOf({ db, access, userId: c.var.principal.userId, chatbotId: id });
    const q = c.req.valid("query");
    const body = (c.req.header("Content-Type") ? c.req.valid("json") : undefined) ?? {};
    const query = body.query ?? q.query?.trim();
    if (!query) throw fieldError("query", "Required, in the body or the query string.");
    const search = { ...body, query, largeLanguageModel: body.largeLanguageModel ?? q.largeLanguageModel };
    const p = bodyPageParams(c, q, body);
    const page = await searchAssistantKnowledge(c.env, db, access.organizationId, knowledge, search, p);
    c.header("Server-Timing", page.serverTiming);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
