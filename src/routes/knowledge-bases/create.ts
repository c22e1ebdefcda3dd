import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { uuidv7 } from "../../lib/ids";
import { knowledgeBases } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import {
  checkKnowledgeBaseReferences,
  knowledgeBaseColumns,
  knowledgeBaseView,
  linkStatements,
} from "../../services/knowledge-bases";
import { resolveVectorDatabase } from "../../services/vector-database";
import { startKeywordIndex } from "../../services/retrieval/knowledge-index";
import { knowledgeBaseRecord } from "../../services/records/knowledge-bases";
import { KNOWLEDGE_TAG, KnowledgeBaseSchema, KnowledgeBaseWrite } from "./schema";

const route = createRoute({
  method: "post",
  path: "/knowledge-bases/",
  tags: [KNOWLEDGE_TAG],
  summary: "Create a knowledge base",
  description:
    "Needs `knowledge_base.manage`. Models must be built-in or the organization's own, of the right kind (400 naming the field). " +
    "An external `vectorDatabaseType` needs its URL and credentials (OpenSearch, Oracle and SynxDB a user and password); credentials are write-only. " +
    "Giving `chatbots` also needs `chatbot.manage`; non-owners may only add groups they belong to (403).",
  request: jsonBody(KnowledgeBaseWrite),
  responses: { 201: json(KnowledgeBaseSchema, "The created knowledge base"), ...errorResponses(400, 403, 404) },
});

export const registerCreateKnowledgeBase = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const body = c.req.valid("json");
    const access = await currentAccess(c);
    requirePermission(access, "knowledge_base.manage");
    const links = await checkKnowledgeBaseReferences(db, access, c.var.principal.userId, body);
    const { storedCredentials, ...store } = await resolveVectorDatabase(c.env, null, body);
    const id = uuidv7();
    const [[row]] = await db.batch([
      db
        .insert(knowledgeBases)
        .values({
          id,
          organizationId: access.organizationId,
          createdById: c.var.principal.userId,
          ...knowledgeBaseColumns(body),
          name: body.name,
          embeddingModelId: body.embeddingModel,
          rerankerModelId: body.rerankerModel,
          ...store,
        })
        .returning(),
      ...linkStatements(db, id, links),
    ]);
    await startKeywordIndex(c.env, id);
    return c.json(
      knowledgeBaseRecord(await knowledgeBaseView(db, access, c.var.principal.userId, row), storedCredentials),
      201,
    );
  });
