import { createRoute } from "@hono/zod-openapi";
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json } from "../../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../../lib/pagination";
import { contains } from "../../../lib/sql";
import { knowledgeBaseFileLabels, knowledgeBaseFiles } from "../../../db/schema";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForRead } from "../../../services/knowledge-bases";
import { fileLabels } from "../../../services/knowledge-files";
import { KNOWLEDGE_TAG } from "../schema";
import { fileRecord } from "../../../services/records/knowledge-files";
import { FileListQuery, KnowledgeBaseFileSchema, KnowledgeBaseParams } from "./schema";

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
    const access = await currentAccess(c);
    const kb = await getKnowledgeBaseForRead(db, access, c.var.principal.userId, c.req.valid("param").knowledgeBaseId);
    const q = c.req.valid("query");
    const p = pageParams(q);
    const labelIds = (q.labels ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const where = and(
      eq(knowledgeBaseFiles.knowledgeBaseId, kb.id),
      q.query ? contains(knowledgeBaseFiles.filename, q.query) : undefined,
      q.status ? eq(knowledgeBaseFiles.status, q.status) : undefined,
      labelIds.length
        ? sql`${knowledgeBaseFiles.id} in (select ${knowledgeBaseFileLabels.fileId} from ${knowledgeBaseFileLabels} where ${knowledgeBaseFileLabels.labelId} in (select value from json_each(${JSON.stringify(labelIds)})))`
        : undefined,
    );
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(knowledgeBaseFiles).where(where),
      db
        .select()
        .from(knowledgeBaseFiles)
        .where(where)
        .orderBy(desc(knowledgeBaseFiles.createdAt), desc(knowledgeBaseFiles.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    const labels = await fileLabels(
      db,
      rows.map((r) => r.id),
    );
    const origin = new URL(c.req.url).origin;
    return c.json(
      pageResponse(
        c,
        p,
        n,
        rows.map((row) => fileRecord(origin, row, { id: kb.id, name: kb.name }, labels.get(row.id) ?? [])),
      ),
      200,
    );
  });
