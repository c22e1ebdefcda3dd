import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { deleteTextNode, getVisibleTextNode } from "../../services/knowledge/text-nodes";
import { KNOWLEDGE_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/chatbot-text-nodes/{id}/",
  tags: [KNOWLEDGE_TAG],
  summary: "Delete a text node",
  description:
    "Needs `knowledge_base.manage` and a knowledge base you can see (else 404). The passage is no longer " +
    "found by any search; " +
    "parsing its file again brings it back.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteTextNode = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "knowledge_base.manage");
    const { node } = await getVisibleTextNode(c.var.db, access, c.var.principal.userId, c.req.valid("param").id);
    await deleteTextNode(c.env, c.var.db, node);
    return c.body(null, 204);
  });
