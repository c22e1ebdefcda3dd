import { createRoute, z } from "@hono/zod-openapi";
import { fieldError } from "../../lib/errors";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { cursorPageOf, cursorResponse, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { currentAccess } from "../../services/access";
import { getVisibleFile } from "../../services/knowledge/files";
import { listLegacyTextNodes, listTextNodes } from "../../services/knowledge/text-nodes";
import { KNOWLEDGE_TAG, TextNodeLegacySchema, TextNodeListQuery, TextNodeSchema, isNewerForm } from "./schema";

const route = createRoute({
  method: "get",
  path: "/chatbot-text-nodes/",
  tags: [KNOWLEDGE_TAG],
  summary: "List a file's text nodes",
  description:
    "The chunks of one knowledge base file, in document order. Two forms (CONTRACT section 1): under `/api` " +
    "the older one, " +
    "a cursor page (`cursor`, `pageSize`) of short records, `chatbotFile` required; under `/api/v1` the newer " +
    "one, a page " +
    "(`page`, `pageSize`) of full records, file named by `knowledgeBaseFile` (or the deprecated `chatbotFile`). " +
    "`query` keeps the nodes whose text contains it (case-insensitive) and marks its terms in `highlightedText`. " +
    "Needs a knowledge base you can see (owner, creator, or `knowledge_base.view` through one of its groups); " +
    "anything else is a 404.",
  request: { query: TextNodeListQuery },
  responses: {
    200: json(
      z
        .union([pageOf(TextNodeSchema, "TextNodePage"), cursorPageOf(TextNodeLegacySchema, "TextNodeLegacyCursorPage")])
        .openapi({ description: "TextNodePage under /api/v1; TextNodeLegacyCursorPage under /api" }),
      "Text nodes of the file",
    ),
    ...errorResponses(400, 404),
  },
});

export const registerListTextNodes = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const q = c.req.valid("query");
    const newer = isNewerForm(c);
    // Either name is taken under either prefix; the error names the parameter of the form asked for.
    const fileId = newer ? (q.knowledgeBaseFile ?? q.chatbotFile) : (q.chatbotFile ?? q.knowledgeBaseFile);
    if (!fileId) throw fieldError(newer ? "knowledgeBaseFile" : "chatbotFile", "Required");
    const file = await getVisibleFile(db, await currentAccess(c), c.var.principal.userId, fileId);

    if (newer) {
      const p = pageParams(q);
      const page = await listTextNodes(db, file, q.query, p);
      return c.json(pageResponse(c, p, page.count, page.items), 200);
    }

    const { cursor, rows } = await listLegacyTextNodes(db, file, q.query, q.cursor, q.pageSize);
    const page = cursorResponse(c, cursor, q.pageSize, rows, (row) => row.position);
    return c.json({ ...page, results: page.results.map((row) => row.record) }, 200);
  });
