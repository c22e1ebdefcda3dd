import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { createLabel } from "../../../services/knowledge/labels";
import { LabelSchema } from "../../../services/records/knowledge-labels";
import { knowledgeBaseWith } from "../access";
import { KNOWLEDGE_TAG, LabelWrite, LabelsParams } from "./schema";

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
    const { kb } = await knowledgeBaseWith(c, c.req.valid("param").knowledgeBaseId, "knowledge_base.manage");
    return c.json(await createLabel(db, kb, c.req.valid("json").name), 201);
  });
