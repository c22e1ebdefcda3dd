import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForRead } from "../../../services/knowledge/knowledge-bases";
import { fileRecordOf, getFile } from "../../../services/knowledge/files";
import { KnowledgeBaseFileSchema } from "../../../services/records/knowledge-files";
import { KNOWLEDGE_TAG } from "../schema";
import { FileParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/knowledge-bases/{knowledgeBaseId}/files/{fileId}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Get a knowledge base file",
  description:
    "With its processing status: `initial` (queued), `processing`, `done`, or `failed` with the reason in " +
    "`processingTimeDetails.error`.",
  request: { params: FileParams },
  responses: { 200: json(KnowledgeBaseFileSchema, "The file"), ...errorResponses(403, 404) },
});

export const registerGetFile = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId, fileId } = c.req.valid("param");
    const kb = await getKnowledgeBaseForRead(db, await currentAccess(c), c.var.principal.userId, knowledgeBaseId);
    const row = await getFile(db, kb.id, fileId);
    return c.json(await fileRecordOf(db, kb, row, new URL(c.req.url).origin), 200);
  });
