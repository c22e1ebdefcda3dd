import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize, requirePermission } from "../../services/access";
import {
  changesAssistantLinks,
  checkKnowledgeBaseReferences,
  createKnowledgeBase,
} from "../../services/knowledge/knowledge-bases";
import { KnowledgeBaseWrite, KnowledgeBaseSchema } from "../../services/records/knowledge-bases";
import { KNOWLEDGE_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/knowledge-bases/",
  tags: [KNOWLEDGE_TAG],
  summary: "Create a knowledge base",
  description:
    "Needs `knowledge_base.manage`. Models must be built-in or the organization's own, of the right kind (400 " +
    "naming the field). " +
    "An external `vectorDatabaseType` needs its URL and credentials (OpenSearch, Oracle and SynxDB a user and " +
    "password); credentials are write-only. Elasticsearch and OpenSearch need the organization's " +
    "`canUseCustomElasticsearch` (403 otherwise). " +
    "Giving `chatbots` also needs `chatbot.manage`; non-owners may only add groups they belong to (403).",
  request: jsonBody(KnowledgeBaseWrite),
  responses: { 201: json(KnowledgeBaseSchema, "The created knowledge base"), ...errorResponses(400, 403, 404) },
});

export const registerCreateKnowledgeBase = (r: Router) =>
  r.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const access = await authorize(c, "knowledge_base.manage");
    const userId = c.var.principal.userId;
    const links = await checkKnowledgeBaseReferences(c.var.db, access, userId, body);
    if (changesAssistantLinks(links)) requirePermission(access, "chatbot.manage");
    return c.json(await createKnowledgeBase(c.env, c.var.db, access, userId, body, links), 201);
  });
