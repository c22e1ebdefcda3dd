import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize, requireConversation } from "../../services/access";
import { conversationRecord } from "../../services/records/conversations";
import { ConversationSchema } from "../../services/records/conversations";

const route = createRoute({
  method: "get",
  path: "/conversations/{id}/",
  tags: ["Conversations"],
  summary: "Get a conversation",
  description: "Needs `conversation.view`.",
  request: { params: IdParams },
  responses: { 200: json(ConversationSchema, "The conversation"), ...errorResponses(403, 404) },
});

export const registerGetConversation = (r: Router) =>
  r.openapi(route, async (c) => {
    await authorize(c, "conversation.view");
    const { id } = c.req.valid("param");
    const view = await requireConversation(c, id);
    return c.json(conversationRecord(view), 200);
  });
