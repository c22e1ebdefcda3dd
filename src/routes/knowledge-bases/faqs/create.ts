import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../../lib/openapi";
import { uuidv7 } from "../../../lib/ids";
import { faqs } from "../../../db/schema";
import { currentAccess } from "../../../services/access";
import { getKnowledgeBaseForUpdate } from "../../../services/knowledge-bases";
import { indexFaqs } from "../../../services/knowledge-content";
import { modelApiError } from "../../../services/llm/errors";
import { checkLabels } from "../../../services/knowledge-files";
import { faqRecord } from "../../../services/records/faqs";
import { getFaq, labelLinkStatements } from "../../../services/faqs";
import { FaqSchema, FaqWrite, FaqsParams, KNOWLEDGE_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/knowledge-bases/{knowledgeBaseId}/faqs/",
  tags: [KNOWLEDGE_TAG],
  summary: "Create an FAQ",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see. `labels` must be labels of this knowledge base (400). " +
    "The FAQ is indexed at once for keyword and vector search with the knowledge base's embedding model.",
  request: { params: FaqsParams, ...jsonBody(FaqWrite) },
  responses: { 201: json(FaqSchema, "The created FAQ"), ...errorResponses(400, 403, 404, 502) },
});

export const registerCreateFaq = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await currentAccess(c);
    const kb = await getKnowledgeBaseForUpdate(
      db,
      access,
      c.var.principal.userId,
      c.req.valid("param").knowledgeBaseId,
    );
    const body = c.req.valid("json");
    const labelIds = await checkLabels(db, kb.id, body.labels);
    const id = uuidv7();
    const [[row]] = await db.batch([
      db
        .insert(faqs)
        .values({
          id,
          knowledgeBaseId: kb.id,
          question: body.question,
          answer: body.answer,
          answerMediaUrls: body.answerMediaUrls ?? {},
          rawUserDefineMetadata: body.rawUserDefineMetadata ?? {},
        })
        .returning(),
      ...labelLinkStatements(db, id, labelIds, false),
    ]);
    await indexFaqs(c.env, db, kb, [row]).catch((err) => {
      throw modelApiError(err);
    });
    // Indexing counted the embedded tokens on the row.
    return c.json(await faqRecord(db, kb, await getFaq(db, kb, id)), 201);
  });
