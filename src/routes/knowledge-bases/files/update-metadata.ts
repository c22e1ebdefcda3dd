import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { getFile, updateFileMetadata } from "../../../services/knowledge/files";
import { KnowledgeBaseFileSchema } from "../../../services/records/knowledge-files";
import { KNOWLEDGE_TAG } from "../schema";
import { knowledgeBaseWith } from "../access";
import { FileMetadataBody, FileParams } from "./schema";

const route = createRoute({
  method: "patch",
  path: "/knowledge-bases/{knowledgeBaseId}/files/{fileId}/update-metadata/",
  tags: [KNOWLEDGE_TAG],
  summary: "Set a file's labels and custom metadata",
  description:
    "Needs `knowledge_base.manage`. `labels` (labels of this knowledge base, else 400) and " +
    "`rawUserDefineMetadata`, when given, replace the current ones. " +
    "Labels restrict what a contact may retrieve (queryMetadata `labelRelations`).",
  request: { params: FileParams, ...jsonBody(FileMetadataBody) },
  responses: { 200: json(KnowledgeBaseFileSchema, "The file"), ...errorResponses(400, 403, 404) },
});

export const registerUpdateFileMetadata = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId, fileId } = c.req.valid("param");
    const { kb } = await knowledgeBaseWith(c, knowledgeBaseId, "knowledge_base.manage");
    const file = await getFile(db, kb.id, fileId);
    return c.json(await updateFileMetadata(db, kb, file, c.req.valid("json"), new URL(c.req.url).origin), 200);
  });
