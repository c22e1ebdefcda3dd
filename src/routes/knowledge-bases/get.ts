import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { currentAccess } from "../../services/access";
import { getKnowledgeBaseForRead, knowledgeBaseRecordOf } from "../../services/knowledge/knowledge-bases";
import { KnowledgeBaseSchema } from "../../services/records/knowledge-bases";
import { KNOWLEDGE_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/knowledge-bases/{id}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Get a knowledge base",
  description:
    "Owners see every knowledge base of the organization; other members those they created and, with " +
    "`knowledge_base.view`, those of their groups.",
  request: { params: IdParams },
  responses: { 200: json(KnowledgeBaseSchema, "The knowledge base"), ...errorResponses(403, 404) },
});

export const registerGetKnowledgeBase = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    const userId = c.var.principal.userId;
    const row = await getKnowledgeBaseForRead(c.var.db, access, userId, c.req.valid("param").id);
    return c.json(await knowledgeBaseRecordOf(c.env, c.var.db, access, userId, row), 200);
  });
