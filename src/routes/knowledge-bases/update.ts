import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize, requirePermission } from "../../services/access";
import {
  changesAssistantLinks,
  checkKnowledgeBaseUpdate,
  getKnowledgeBaseForRead,
  updateKnowledgeBase,
} from "../../services/knowledge/knowledge-bases";
import { KnowledgeBasePatch, KnowledgeBaseWrite, KnowledgeBaseSchema } from "../../services/records/knowledge-bases";
import { KNOWLEDGE_TAG } from "./schema";

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/knowledge-bases/{id}/",
    tags: [KNOWLEDGE_TAG],
    summary: method === "put" ? "Replace a knowledge base's settings" : "Update some settings of a knowledge base",
    description:
      "Needs `knowledge_base.manage` and a knowledge base you can see. " +
      (method === "put" ? "`name`, `embeddingModel` and `rerankerModel` are required; " : "") +
      "fields left out keep their value; `groups`, when given, replaces the list, and `chatbots` the " +
      "assistants you can see " +
      "(links to others stay; adding or removing one needs `chatbot.manage`). " +
      "The embedding model cannot change while the knowledge base holds indexed content or files being processed " +
      "(its vectors would no longer match). " +
      "Store credentials: a string replaces, null clears, absent keeps. Setting up or changing an Elasticsearch or " +
      "OpenSearch store needs the organization's `canUseCustomElasticsearch` (403 otherwise).",
    request: { params: IdParams, ...jsonBody(method === "put" ? KnowledgeBaseWrite : KnowledgeBasePatch) },
    responses: { 200: json(KnowledgeBaseSchema, "The updated knowledge base"), ...errorResponses(400, 403, 404) },
  });

export function registerUpdateKnowledgeBase(r: Router) {
  for (const route of [routeFor("put"), routeFor("patch")]) {
    r.openapi(route, async (c) => {
      const db = c.var.db;
      const access = await authorize(c, "knowledge_base.manage");
      const userId = c.var.principal.userId;
      const current = await getKnowledgeBaseForRead(db, access, userId, c.req.valid("param").id);
      const body = c.req.valid("json");
      const links = await checkKnowledgeBaseUpdate(db, access, userId, current, body);
      if (changesAssistantLinks(links)) requirePermission(access, "chatbot.manage");
      return c.json(await updateKnowledgeBase(c.env, db, access, userId, current, body, links), 200);
    });
  }
}
