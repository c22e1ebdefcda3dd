import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { createFaq } from "../../../services/knowledge/faqs";
import { FaqWrite, FaqSchema } from "../../../services/records/faqs";
import { knowledgeBaseWith } from "../access";
import { FaqsParams, KNOWLEDGE_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/knowledge-bases/{knowledgeBaseId}/faqs/",
  tags: [KNOWLEDGE_TAG],
  summary: "Create an FAQ",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see. `labels` must be labels of this " +
    "knowledge base (400). " +
    "The FAQ is indexed at once for keyword and vector search with the knowledge base's embedding model. When " +
    "that model changed while the FAQ was embedded, it is embedded again by the new one; 409 when the model " +
    "changed again meanwhile (nothing is stored: send it again).",
  request: { params: FaqsParams, ...jsonBody(FaqWrite) },
  responses: { 201: json(FaqSchema, "The created FAQ"), ...errorResponses(400, 403, 404, 409, 502) },
});

export const registerCreateFaq = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { kb } = await knowledgeBaseWith(c, c.req.valid("param").knowledgeBaseId, "knowledge_base.manage");
    return c.json(await createFaq(c.env, db, kb, c.req.valid("json")), 201);
  });
