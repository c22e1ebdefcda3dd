import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { conflict, isUniqueViolation } from "../../../lib/errors";
import { knowledgeBaseLabels } from "../../../db/schema";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForUpdate } from "../../../services/knowledge-bases";
import { getLabel } from "../../../services/knowledge-labels";
import { labelRecord } from "../../../services/records/knowledge-labels";
import { KNOWLEDGE_TAG, LabelParams, LabelSchema, LabelWrite } from "./schema";

const route = createRoute({
  method: "put",
  path: "/knowledge-bases/{knowledgeBaseId}/labels/{labelId}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Rename a label",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see. Names are unique within the knowledge base (409).",
  request: { params: LabelParams, ...jsonBody(LabelWrite) },
  responses: { 200: json(LabelSchema, "The updated label"), ...errorResponses(400, 403, 404, 409) },
});

export const registerUpdateLabel = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId, labelId } = c.req.valid("param");
    const access = await currentAccess(c);
    const kb = await getKnowledgeBaseForUpdate(db, access, c.var.principal.userId, knowledgeBaseId);
    const current = await getLabel(db, kb, labelId);
    const [row] = await db
      .update(knowledgeBaseLabels)
      .set({ name: c.req.valid("json").name, updatedAt: Date.now() })
      .where(eq(knowledgeBaseLabels.id, current.id))
      .returning()
      .catch((err) => {
        throw isUniqueViolation(err) ? conflict("A label with this name already exists in the knowledge base.") : err;
      });
    return c.json(labelRecord(kb, { ...row, filesCount: current.filesCount, faqsCount: current.faqsCount }), 200);
  });
