import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Bindings, Db } from "../../../env";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { faqs } from "../../../db/schema";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForUpdate, type KnowledgeBaseRow } from "../../../services/knowledge-bases";
import { indexFaqs } from "../../../services/knowledge-content";
import { modelApiError } from "../../../services/llm/errors";
import { checkLabels } from "../../../services/knowledge-files";
import { getFaq, labelLinkStatements, type FaqRow } from "../../../services/faqs";
import { faqRecord } from "../../../services/records/faqs";
import { FaqParams, FaqPatch, FaqSchema, KNOWLEDGE_TAG, type FaqInput } from "./schema";

/**
 * Writes the given fields of an FAQ and its labels in one batch (atomic), then re-indexes it when
 * its searchable text changed. Also used by update-metadata.
 */
export async function applyFaqUpdate(env: Bindings, db: Db, kb: KnowledgeBaseRow, current: FaqRow, body: FaqInput) {
  const labelIds = await checkLabels(db, kb.id, body.labels);
  const values = Object.fromEntries(
    Object.entries({
      question: body.question,
      answer: body.answer,
      answerMediaUrls: body.answerMediaUrls === null ? {} : body.answerMediaUrls,
      rawUserDefineMetadata: body.rawUserDefineMetadata === null ? {} : body.rawUserDefineMetadata,
    }).filter(([, v]) => v !== undefined),
  );
  const [[row]] = await db.batch([
    db
      .update(faqs)
      .set({ ...values, updatedAt: Date.now() })
      .where(eq(faqs.id, current.id))
      .returning(),
    ...labelLinkStatements(db, current.id, labelIds, true),
  ]);
  if (row.question !== current.question || row.answer !== current.answer) {
    await indexFaqs(env, db, kb, [row]).catch((err) => {
      throw modelApiError(err);
    });
    return faqRecord(db, kb, await getFaq(db, kb, row.id));
  }
  return faqRecord(db, kb, row);
}

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/knowledge-bases/{knowledgeBaseId}/faqs/{faqId}/",
    tags: [KNOWLEDGE_TAG],
    summary: method === "put" ? "Update an FAQ" : "Update some fields of an FAQ",
    description:
      "Needs `knowledge_base.manage` and a knowledge base you can see. " +
      (method === "put" ? "PUT takes the same partial body as PATCH (clients send only the changed `answer`): " : "") +
      "fields left out keep their value; fields given are checked as on creation (an empty `question` or `answer` is 400); " +
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
      const access = await currentAccess(c);
      const kb = await getKnowledgeBaseForUpdate(db, access, c.var.principal.userId, knowledgeBaseId);
      const current = await getFaq(db, kb, faqId);
      return c.json(await applyFaqUpdate(c.env, db, kb, current, c.req.valid("json")), 200);
    });
  }
}
