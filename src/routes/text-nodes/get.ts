import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { currentAccess } from "../../services/access";
import { fileLabels } from "../../services/knowledge/files";
import { legacyTextNodeRecord, textNodeRecord } from "../../services/records/text-nodes";
import { getVisibleTextNode } from "../../services/knowledge/text-nodes";
import { KNOWLEDGE_TAG, TextNodeLegacySchema, TextNodeSchema, isNewerForm } from "./schema";

const route = createRoute({
  method: "get",
  path: "/chatbot-text-nodes/{id}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Get a text node",
  description:
    "The older short record under `/api`, the full record under `/api/v1` (CONTRACT section 1). " +
    "Needs a knowledge base you can see; a node of any other knowledge base or organization is a 404.",
  request: { params: IdParams },
  responses: {
    200: json(
      z
        .union([TextNodeSchema, TextNodeLegacySchema])
        .openapi({ description: "TextNode under /api/v1; TextNodeLegacy under /api" }),
      "The text node",
    ),
    ...errorResponses(404),
  },
});

export const registerGetTextNode = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const found = await getVisibleTextNode(db, await currentAccess(c), c.var.principal.userId, c.req.valid("param").id);
    if (!isNewerForm(c)) return c.json(legacyTextNodeRecord(found.node, found.file), 200);
    const labels = await fileLabels(db, [found.file.id]);
    return c.json(textNodeRecord(found.node, found.file, labels(found.file.id), undefined), 200);
  });
