import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForRead } from "../../../services/knowledge-bases";
import { fileLabels, getFile } from "../../../services/knowledge-files";
import { KNOWLEDGE_TAG } from "../schema";
import { fileRecord } from "../../../services/records/knowledge-files";
import { FileParams, KnowledgeBaseFileSchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/knowledge-bases/{knowledgeBaseId}/files/{fileId}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Get a knowledge base file",
  description:
    "With its processing status: `initial` (queued), `processing`, `done`, or `failed` with the reason in `processingTimeDetails.error`.",
  request: { params: FileParams },
  responses: { 200: json(KnowledgeBaseFileSchema, "The file"), ...errorResponses(403, 404) },
});

export const registerGetFile = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId, fileId } = c.req.valid("param");
    const kb = await getKnowledgeBaseForRead(db, await currentAccess(c), c.var.principal.userId, knowledgeBaseId);
    const row = await getFile(db, kb.id, fileId);
    const labels = await fileLabels(db, [row.id]);
    const origin = new URL(c.req.url).origin;
    return c.json(fileRecord(origin, row, { id: kb.id, name: kb.name }, labels.get(row.id) ?? []), 200);
  });
