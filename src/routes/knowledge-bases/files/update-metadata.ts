import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { knowledgeBaseFiles } from "../../../db/schema";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForUpdate } from "../../../services/knowledge-bases";
import { checkLabels, fileLabelStatements, fileLabels, getFile } from "../../../services/knowledge-files";
import { KNOWLEDGE_TAG } from "../schema";
import { fileRecord } from "../../../services/records/knowledge-files";
import { FileMetadataBody, FileParams, KnowledgeBaseFileSchema } from "./schema";

const route = createRoute({
  method: "patch",
  path: "/knowledge-bases/{knowledgeBaseId}/files/{fileId}/update-metadata/",
  tags: [KNOWLEDGE_TAG],
  summary: "Set a file's labels and custom metadata",
  description:
    "Needs `knowledge_base.manage`. `labels` (labels of this knowledge base, else 400) and `rawUserDefineMetadata`, when given, replace the current ones. " +
    "Labels restrict what a contact may retrieve (queryMetadata `labelRelations`).",
  request: { params: FileParams, ...jsonBody(FileMetadataBody) },
  responses: { 200: json(KnowledgeBaseFileSchema, "The file"), ...errorResponses(400, 403, 404) },
});

export const registerUpdateFileMetadata = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId, fileId } = c.req.valid("param");
    const kb = await getKnowledgeBaseForUpdate(db, await currentAccess(c), c.var.principal.userId, knowledgeBaseId);
    const file = await getFile(db, kb.id, fileId);
    const body = c.req.valid("json");
    const labelIds = await checkLabels(db, kb.id, body.labels);
    await db.batch([
      db
        .update(knowledgeBaseFiles)
        .set({ rawUserDefineMetadata: body.rawUserDefineMetadata ?? file.rawUserDefineMetadata, updatedAt: Date.now() })
        .where(eq(knowledgeBaseFiles.id, file.id)),
      ...(labelIds ? fileLabelStatements(db, file.id, labelIds) : []),
    ]);
    const row = await getFile(db, kb.id, file.id);
    const labels = await fileLabels(db, [row.id]);
    const origin = new URL(c.req.url).origin;
    return c.json(fileRecord(origin, row, { id: kb.id, name: kb.name }, labels.get(row.id) ?? []), 200);
  });
