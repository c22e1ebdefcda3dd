import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { getFaq, updateFaq } from "../../../services/knowledge/faqs";
import { FaqMetadataPatch, FaqSchema } from "../../../services/records/faqs";
import { knowledgeBaseWith } from "../access";
import { FaqParams, KNOWLEDGE_TAG } from "./schema";

const route = createRoute({
  method: "patch",
  path: "/knowledge-bases/{knowledgeBaseId}/faqs/{faqId}/update-metadata/",
  tags: [KNOWLEDGE_TAG],
  summary: "Update the labels and custom metadata of an FAQ",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see. `labels` (labels of this knowledge base, " +
    "else 400) and " +
    "`rawUserDefineMetadata` replace the stored values when given; the FAQ's text and index are untouched.",
  request: { params: FaqParams, ...jsonBody(FaqMetadataPatch) },
  responses: { 200: json(FaqSchema, "The updated FAQ"), ...errorResponses(400, 403, 404) },
});

export const registerUpdateFaqMetadata = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const { knowledgeBaseId, faqId } = c.req.valid("param");
    const { kb } = await knowledgeBaseWith(c, knowledgeBaseId, "knowledge_base.manage");
    const current = await getFaq(db, kb, faqId);
    const { labels, rawUserDefineMetadata } = c.req.valid("json");
    return c.json(await updateFaq(c.env, db, kb, current, { labels, rawUserDefineMetadata }), 200);
  });
