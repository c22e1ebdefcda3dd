import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, storedFile } from "../../../lib/openapi";
import { objectDownload } from "../../../services/uploads/served";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForRead } from "../../../services/knowledge/knowledge-bases";
import { getFile } from "../../../services/knowledge/files";
import { KNOWLEDGE_TAG } from "../schema";
import { FileParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/knowledge-bases/{knowledgeBaseId}/files/{fileId}/download/",
  tags: [KNOWLEDGE_TAG],
  summary: "Download a knowledge base file as uploaded",
  request: { params: FileParams },
  responses: {
    200: storedFile("The file's bytes, with its content type"),
    ...errorResponses(403, 404),
  },
});

export const registerDownloadFile = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId, fileId } = c.req.valid("param");
    const kb = await getKnowledgeBaseForRead(db, await currentAccess(c), c.var.principal.userId, knowledgeBaseId);
    const row = await getFile(db, kb.id, fileId);
    return objectDownload(c.env, row.objectKey, row.filename, "The file's bytes are no longer stored.") as never;
  });
