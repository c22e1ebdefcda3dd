import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { getFaq, updateFaq } from "../../../services/knowledge/faqs";
import { FaqPatch, FaqSchema } from "../../../services/records/faqs";
import { knowledgeBaseWith } from "../access";
import { FaqParams, KNOWLEDGE_TAG } from "./schema";

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/knowledge-bases/{knowledgeBaseId}/faqs/{faqId}/",
    tags: [KNOWLEDGE_TAG],
    summary: method === "put" ? "Update an FAQ" : "Update some fields of an FAQ",
    description:
      "Needs `knowledge_base.manage` and a knowledge base you can see. " +
      (method === "put" ? "PUT takes the same partial body as PATCH (clients send only the changed `answer`): " : "") +
      "fields left out keep their value; fields given are checked as on creation (an empty `question` or " +
      "`answer` is 400); " +
      "`labels`, when given, replaces the list (labels of this knowledge base, else 400). " +
      "A changed question or answer is re-indexed at once.",
    request: { params: FaqParams, ...jsonBody(FaqPatch) },
    responses: { 200: json(FaqSchema, "The updated FAQ"), ...errorResponses(400, 403, 404, 502) },
  });

export function registerUpdateFaq(r: Router) {
  for (const route of [routeFor("put"), routeFor("patch")]) {
    r.openapi(route, async (c) => {
      const db = c.var.db;
      const { knowledgeBaseId, faqId } = c.req.valid("param");
      const { kb } = await knowledgeBaseWith(c, knowledgeBaseId, "knowledge_base.manage");
      const current = await getFaq(db, kb, faqId);
      return c.json(await updateFaq(c.env, db, kb, current, c.req.valid("json")), 200);
    });
  }
}
