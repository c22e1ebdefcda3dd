import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { conflict, isUniqueViolation } from "../../../lib/errors";
import { knowledgeBaseLabels } from "../../../db/schema";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForUpdate } from "../../../services/knowledge-bases";
import { labelRecord } from "../../../services/records/knowledge-labels";
import { KNOWLEDGE_TAG, LabelSchema, LabelWrite, LabelsParams } from "./schema";

const route = createRoute({
  method: "post",
  path: "/knowledge-bases/{knowledgeBaseId}/labels/",
  tags: [KNOWLEDGE_TAG],
  summary: "Create a label in a knowledge base",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see. Names are unique within the knowledge base (409).",
  request: { params: LabelsParams, ...jsonBody(LabelWrite) },
  responses: { 201: json(LabelSchema, "The created label"), ...errorResponses(400, 403, 404, 409) },
});

export const registerCreateLabel = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await currentAccess(c);
    const kb = await getKnowledgeBaseForUpdate(
      db,
      access,
      c.var.principal.userId,
      c.req.valid("param").knowledgeBaseId,
    );
    const { name } = c.req.valid("json");
    const [row] = await db
      .insert(knowledgeBaseLabels)
      .values({ knowledgeBaseId: kb.id, name })
      .returning()
      .catch((err) => {
        throw isUniqueViolation(err) ? conflict("A label with this name already exists in the knowledge base.") : err;
      });
    return c.json(labelRecord(kb, { ...row, filesCount: 0, faqsCount: 0 }), 201);
  });
