import { createRoute } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { knowledgeBaseFiles } from "../../../db/schema";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForUpdate } from "../../../services/knowledge-bases";
import { enqueueFiles, fileLabels } from "../../../services/knowledge-files";
import { KNOWLEDGE_TAG } from "../schema";
import { fileRecord } from "../../../services/records/knowledge-files";
import { KnowledgeBaseFileSchema, KnowledgeBaseParams, ReparseBody } from "./schema";

const route = createRoute({
  method: "patch",
  path: "/knowledge-bases/{knowledgeBaseId}/files/batch-reparse/",
  tags: [KNOWLEDGE_TAG],
  summary: "Parse files again",
  description:
    "Needs `knowledge_base.manage`. Each file goes back to `initial` and is parsed, chunked and indexed again in the background; its current text " +
    "nodes stay searchable until the new ones replace them. A job still running for the previous parse is discarded. Ids of other knowledge bases are ignored.",
  request: { params: KnowledgeBaseParams, ...jsonBody(ReparseBody, "JSON array of `{id, parser}`") },
  responses: {
    200: json(KnowledgeBaseFileSchema.array(), "The files, queued again"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerReparseFiles = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const kb = await getKnowledgeBaseForUpdate(
      db,
      await currentAccess(c),
      c.var.principal.userId,
      c.req.valid("param").knowledgeBaseId,
    );
    const ids = [...new Set(c.req.valid("json").map((f) => f.id))];
    const now = Date.now();
    const rows = await db
      .update(knowledgeBaseFiles)
      .set({
        status: "initial",
        generation: sql`${knowledgeBaseFiles.generation} + 1`,
        queuedAt: now,
        startedAt: null,
        finishedAt: null,
        processingTimeDetails: {},
        updatedAt: now,
      })
      .where(
        and(
          eq(knowledgeBaseFiles.knowledgeBaseId, kb.id),
          sql`${knowledgeBaseFiles.id} in (select value from json_each(${JSON.stringify(ids)}))`,
        ),
      )
      .returning();
    await enqueueFiles(c.env, rows);
    const labels = await fileLabels(
      db,
      rows.map((r) => r.id),
    );
    const origin = new URL(c.req.url).origin;
    return c.json(
      rows.map((row) => fileRecord(origin, row, { id: kb.id, name: kb.name }, labels.get(row.id) ?? [])),
      200,
    );
  });
