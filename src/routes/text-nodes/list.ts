import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, count, desc, eq, gt, lt } from "drizzle-orm";
import { textNodes } from "../../db/schema";
import { badRequest, fieldError } from "../../lib/errors";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { cursorPageOf, cursorResponse, decodeCursor, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { contains } from "../../lib/sql";
import { currentAccess } from "../../services/access";
import { fileLabels, getVisibleFile } from "../../services/knowledge-files";
import { legacyTextNodeRecord, textNodeRecord } from "../../services/records/text-nodes";
import { KNOWLEDGE_TAG, TextNodeLegacySchema, TextNodeListQuery, TextNodeSchema, isNewerForm } from "./schema";

const route = createRoute({
  method: "get",
  path: "/chatbot-text-nodes/",
  tags: [KNOWLEDGE_TAG],
  summary: "List a file's text nodes",
  description:
    "The chunks of one knowledge base file, in document order. Two forms (CONTRACT section 1): under `/api` the older one, " +
    "a cursor page (`cursor`, `pageSize`) of short records, `chatbotFile` required; under `/api/v1` the newer one, a page " +
    "(`page`, `pageSize`) of full records, file named by `knowledgeBaseFile` (or the deprecated `chatbotFile`). " +
    "`query` keeps the nodes whose text contains it (case-insensitive) and marks its terms in `highlightedText`. " +
    "Needs a knowledge base you can see (owner, creator, or `knowledge_base.view` through one of its groups); anything else is a 404.",
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
    const where = and(eq(textNodes.fileId, file.id), q.query ? contains(textNodes.text, q.query) : undefined);

    if (newer) {
      const p = pageParams(q);
      const [[{ n }], rows, labels] = await Promise.all([
        db.select({ n: count() }).from(textNodes).where(where),
        db.select().from(textNodes).where(where).orderBy(asc(textNodes.position)).limit(p.limit).offset(p.offset),
        fileLabels(db, [file.id]),
      ]);
      const records = rows.map((row) => textNodeRecord(row, file, labels.get(file.id) ?? [], q.query));
      return c.json(pageResponse(c, p, n, records), 200);
    }

    // Cursor over `position`, unique within a file, so pages neither skip nor repeat a node.
    const cursor = decodeCursor(q.cursor);
    const k = Number(cursor?.k);
    if (cursor && !Number.isInteger(k)) throw badRequest("Invalid cursor.", { cursor: ["Invalid cursor."] });
    const rows = await db
      .select()
      .from(textNodes)
      .where(
        and(where, cursor ? (cursor.d === "n" ? gt(textNodes.position, k) : lt(textNodes.position, k)) : undefined),
      )
      .orderBy(cursor?.d === "p" ? desc(textNodes.position) : asc(textNodes.position))
      .limit(q.pageSize + 1);
    const page = cursorResponse(c, cursor, q.pageSize, rows, (row) => row.position);
    return c.json({ ...page, results: page.results.map((row) => legacyTextNodeRecord(row, file)) }, 200);
  });
