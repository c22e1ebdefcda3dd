import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../../lib/pagination";
import { listFiles } from "../../../services/knowledge/files";
import { KnowledgeBaseFileSchema } from "../../../services/records/knowledge-files";
import { KNOWLEDGE_TAG } from "../schema";
import { knowledgeBaseWith } from "../access";
import { FileListQuery, KnowledgeBaseParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/knowledge-bases/{knowledgeBaseId}/files/",
  tags: [KNOWLEDGE_TAG],
  summary: "List a knowledge base's files",
  description:
    "Newest first. Filters: `query` (filename contains), `status`, `labels` (comma-separated label ids, any of).",
  request: { params: KnowledgeBaseParams, query: FileListQuery },
  responses: {
    200: json(pageOf(KnowledgeBaseFileSchema, "KnowledgeBaseFilePage"), "Page of files"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListFiles = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { kb } = await knowledgeBaseWith(c, c.req.valid("param").knowledgeBaseId);
    const { query, status, labels, ...page } = c.req.valid("query");
    const p = pageParams(page);
    const found = await listFiles(db, kb, { query, status, labels }, p, new URL(c.req.url).origin);
    return c.json(pageResponse(c, p, found.count, found.items), 200);
  });
