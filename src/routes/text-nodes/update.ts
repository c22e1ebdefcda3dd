import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { fileLabels } from "../../services/knowledge/files";
import { legacyTextNodeRecord, textNodeRecord } from "../../services/records/text-nodes";
import { getVisibleTextNode, rewriteTextNode } from "../../services/knowledge/text-nodes";
import { KNOWLEDGE_TAG, TextNodeLegacySchema, TextNodeSchema, isNewerForm } from "./schema";

const TextNodePatch = z
  .object({
    text: z.string().trim().min(1).max(100_000).openapi({
      description: "The passage's new text, 1 to 100,000 characters",
      example: "The warranty lasts three years from purchase.",
    }),
  })
  .openapi("TextNodePatch");

const route = createRoute({
  method: "patch",
  path: "/chatbot-text-nodes/{id}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Change a text node's text",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see (else 404). The passage is indexed again " +
    "for keyword and vector search at once; " +
    "its page and character offsets still name where it came from in the file. Parsing the file again " +
    "replaces its nodes, edited ones included. " +
    "Answers the record in the form of the prefix (CONTRACT section 1).",
  request: { params: IdParams, ...jsonBody(TextNodePatch) },
  responses: {
    200: json(
      z
        .union([TextNodeSchema, TextNodeLegacySchema])
        .openapi({ description: "TextNode under /api/v1; TextNodeLegacy under /api" }),
      "The changed text node",
    ),
    ...errorResponses(400, 403, 404, 502),
  },
});

export const registerUpdateTextNode = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await authorize(c, "knowledge_base.manage");
    const { node, file, kb } = await getVisibleTextNode(db, access, c.var.principal.userId, c.req.valid("param").id);
    const row = await rewriteTextNode(c.env, db, kb, node, c.req.valid("json").text);
    if (!isNewerForm(c)) return c.json(legacyTextNodeRecord(row, file), 200);
    const labels = await fileLabels(db, [file.id]);
    return c.json(textNodeRecord(row, file, labels(file.id), undefined), 200);
  });
