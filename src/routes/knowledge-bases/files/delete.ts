import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, jsonBody, noContent } from "../../../lib/openapi";
import { deleteFiles } from "../../../services/knowledge/content";
import { getFile } from "../../../services/knowledge/files";
import { KNOWLEDGE_TAG } from "../schema";
import { knowledgeBaseWith } from "../access";
import { FileParams, IdsBody, KnowledgeBaseParams } from "./schema";

const deleteRoute = createRoute({
  method: "delete",
  path: "/knowledge-bases/{knowledgeBaseId}/files/{fileId}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Delete a knowledge base file",
  description:
    "Needs `knowledge_base.manage`. Its text nodes, vectors and stored bytes go with it; replies stop citing " +
    "it at once.",
  request: { params: FileParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

const batchRoute = createRoute({
  method: "post",
  path: "/knowledge-bases/{knowledgeBaseId}/files/batch-delete/",
  tags: [KNOWLEDGE_TAG],
  summary: "Delete several knowledge base files",
  description:
    "Needs `knowledge_base.manage`. An id that is not a file of this knowledge base is 400 naming it, and " +
    "nothing is deleted.",
  request: { params: KnowledgeBaseParams, ...jsonBody(IdsBody) },
  responses: { 204: noContent, ...errorResponses(400, 403, 404) },
});

export const registerDeleteFiles = (r: Router) => {
  r.openapi(deleteRoute, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId, fileId } = c.req.valid("param");
    const { kb } = await knowledgeBaseWith(c, knowledgeBaseId, "knowledge_base.manage");
    const row = await getFile(db, kb.id, fileId);
    await deleteFiles(c.env, db, kb.id, [row.id]);
    return c.body(null, 204);
  });
  r.openapi(batchRoute, async (c) => {
    const db = c.var.db;
    const { kb } = await knowledgeBaseWith(c, c.req.valid("param").knowledgeBaseId, "knowledge_base.manage");
    await deleteFiles(c.env, db, kb.id, [...new Set(c.req.valid("json").ids)]);
    return c.body(null, 204);
  });
};
