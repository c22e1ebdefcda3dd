import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { fieldError } from "../../lib/errors";
import { knowledgeBases } from "../../db/schema";
import { currentAccess } from "../../services/access";
import {
  checkKnowledgeBaseReferences,
  currentLinks,
  getKnowledgeBaseForUpdate,
  hasIndexedContent,
  knowledgeBaseColumns,
  knowledgeBaseView,
  linkStatements,
} from "../../services/knowledge-bases";
import { resolveVectorDatabase } from "../../services/vector-database";
import { knowledgeBaseRecord } from "../../services/records/knowledge-bases";
import { KNOWLEDGE_TAG, KnowledgeBasePatch, KnowledgeBaseSchema, KnowledgeBaseWrite } from "./schema";

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/knowledge-bases/{id}/",
    tags: [KNOWLEDGE_TAG],
    summary: method === "put" ? "Replace a knowledge base's settings" : "Update some settings of a knowledge base",
    description:
      "Needs `knowledge_base.manage` and a knowledge base you can see. " +
      (method === "put" ? "`name`, `embeddingModel` and `rerankerModel` are required; " : "") +
      "fields left out keep their value; `groups`, when given, replaces the list, and `chatbots` the assistants you can see " +
      "(links to others stay; adding or removing one needs `chatbot.manage`). " +
      "The embedding model cannot change while the knowledge base holds indexed content (its vectors would no longer match). " +
      "Store credentials: a string replaces, null clears, absent keeps.",
    request: { params: IdParams, ...jsonBody(method === "put" ? KnowledgeBaseWrite : KnowledgeBasePatch) },
    responses: { 200: json(KnowledgeBaseSchema, "The updated knowledge base"), ...errorResponses(400, 403, 404) },
  });

export function registerUpdateKnowledgeBase(r: Router) {
  for (const route of [routeFor("put"), routeFor("patch")]) {
    r.openapi(route, async (c) => {
      const db = c.var.db;
      const access = await currentAccess(c);
      const current = await getKnowledgeBaseForUpdate(db, access, c.var.principal.userId, c.req.valid("param").id);
      const body = c.req.valid("json");
      if (
        body.embeddingModel &&
        body.embeddingModel !== current.embeddingModelId &&
        (await hasIndexedContent(db, current.id))
      ) {
        throw fieldError(
          "embeddingModel",
          "Cannot change while the knowledge base holds indexed files or FAQs; create a new knowledge base instead.",
        );
      }
      const links = await checkKnowledgeBaseReferences(
        db,
        access,
        c.var.principal.userId,
        body,
        await currentLinks(db, access, c.var.principal.userId, current.id),
      );
      const { storedCredentials, ...store } = await resolveVectorDatabase(c.env, current, body);
      const values = Object.fromEntries(Object.entries(knowledgeBaseColumns(body)).filter(([, v]) => v !== undefined));
      const [[row]] = await db.batch([
        db
          .update(knowledgeBases)
          .set({ ...values, ...store, updatedAt: Date.now() })
          .where(eq(knowledgeBases.id, current.id))
          .returning(),
        ...linkStatements(db, current.id, links),
      ]);
      return c.json(
        knowledgeBaseRecord(await knowledgeBaseView(db, access, c.var.principal.userId, row), storedCredentials),
        200,
      );
    });
  }
}
