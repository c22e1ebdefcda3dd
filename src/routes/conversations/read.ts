import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize, conversationData } from "../../services/access";
import { readConversation } from "../../services/conversation/operator-writes";
import { conversationRecord } from "../../services/records/conversations";
import { ConversationSchema } from "../../services/records/conversations";

const route = createRoute({
  method: "post",
  path: "/conversations/{id}/read/",
  tags: ["Conversations"],
  summary: "Mark a conversation read",
  description:
    "Needs `conversation.view` (who may read a conversation may say they read it). Its `unreadCount` " +
    "becomes 0, and the " +
    "organization's live stream (`conversation-events/`) carries `conversation.updated` so the team's other " +
    "tabs update their " +
    "counts. The inbox's `unreadConversationsCount` no longer counts it. Nothing changes (and nothing is " +
    "published) when it had no unread messages.",
  request: { params: IdParams },
  responses: { 200: json(ConversationSchema, "The conversation, read"), ...errorResponses(403, 404) },
});

export const registerReadConversation = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.view");
    const { id } = c.req.valid("param");
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    const data = await conversationData(c, id);
    const view = await readConversation(c.env, c.var.db, data, waitUntil, access.organizationId, id);
    return c.json(conversationRecord(view), 200);
  });
