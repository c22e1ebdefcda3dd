import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { authorize, conversationData } from "../../services/access";
import { findConversation } from "../../services/conversation/views";
import { conversationRecord } from "../../services/records/conversations";
import { ConversationSchema } from "../../services/records/conversations";

const route = createRoute({
  method: "get",
  path: "/conversations/{id}/",
  tags: ["Conversations"],
  summary: "Get a conversation",
  description: "Requires `conversation.view`.",
  request: { params: IdParams },
  responses: { 200: json(ConversationSchema, "The conversation"), ...errorResponses(403, 404) },
});

export const registerGetConversation = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.view");
    const { id } = c.req.valid("param");
    const view = await findConversation(c.var.db, await conversationData(c, id), access.organizationId, id);
    if (!view) throw notFound();
    return c.json(conversationRecord(view), 200);
  });
