import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { getLabel, renameLabel } from "../../../services/knowledge/labels";
import { LabelSchema } from "../../../services/records/knowledge-labels";
import { knowledgeBaseWith } from "../access";
import { KNOWLEDGE_TAG, LabelParams, LabelWrite } from "./schema";

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
    const { kb } = await knowledgeBaseWith(c, knowledgeBaseId, "knowledge_base.manage");
    const current = await getLabel(db, kb, labelId);
    return c.json(await renameLabel(db, kb, current, c.req.valid("json").name), 200);
  });
