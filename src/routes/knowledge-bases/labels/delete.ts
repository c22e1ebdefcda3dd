import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Router } from "../../../lib/openapi";
import { errorResponses, noContent } from "../../../lib/openapi";
import { knowledgeBaseLabels } from "../../../db/schema";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForUpdate } from "../../../services/knowledge-bases";
import { getLabel } from "../../../services/knowledge-labels";
import { KNOWLEDGE_TAG, LabelParams } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/knowledge-bases/{knowledgeBaseId}/labels/{labelId}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Delete a label",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see. Files and FAQs keep existing; they just lose the label.",
  request: { params: LabelParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteLabel = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId, labelId } = c.req.valid("param");
    const access = await currentAccess(c);
    const kb = await getKnowledgeBaseForUpdate(db, access, c.var.principal.userId, knowledgeBaseId);
    const label = await getLabel(db, kb, labelId);
    // Links to files and FAQs go by the foreign keys' cascade.
    await db.delete(knowledgeBaseLabels).where(eq(knowledgeBaseLabels.id, label.id));
    return c.body(null, 204);
  });
