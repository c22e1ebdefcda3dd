import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { reparseFiles } from "../../../services/knowledge/files";
import { KnowledgeBaseFileSchema } from "../../../services/records/knowledge-files";
import { KNOWLEDGE_TAG } from "../schema";
import { knowledgeBaseWith } from "../access";
import { KnowledgeBaseParams, ReparseBody } from "./schema";

const route = createRoute({
  method: "patch",
  path: "/knowledge-bases/{knowledgeBaseId}/files/batch-reparse/",
  tags: [KNOWLEDGE_TAG],
  summary: "Parse files again",
  description:
    "Needs `knowledge_base.manage`. Each file goes back to `initial` and is parsed, chunked and indexed again " +
    "in the background; its current text " +
    "nodes stay searchable until the new ones replace them. A job still running for the previous parse is " +
    "discarded. An id that is not a file of this knowledge base is 400 naming it, and nothing is queued.",
  request: { params: KnowledgeBaseParams, ...jsonBody(ReparseBody, "JSON array of `{id, parser}`") },
  responses: {
    200: json(KnowledgeBaseFileSchema.array(), "The files, queued again"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerReparseFiles = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { kb } = await knowledgeBaseWith(c, c.req.valid("param").knowledgeBaseId, "knowledge_base.manage");
    const ids = [...new Set(c.req.valid("json").map((f) => f.id))];
    return c.json(await reparseFiles(c.env, db, kb, ids, new URL(c.req.url).origin), 200);
  });
