import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { conversationObject } from "../../services/conversations";
import { SSE_HEADERS } from "../../services/sse";
import { activeWebChat } from "../../services/widget/web-chats";
import { visitorConversation, visitorOf } from "../../services/widget/visitors";
import { liveMessages } from "../../services/widget/live";
import { ConversationParams, VISITOR_SECURITY, WIDGET_TAG } from "./schema";

const EXAMPLE = 'id: 0190...\nevent: message\ndata: {"id":"0190...","role":"agent","senderName":"Sam","content":"Hi, Sam here.",...}';

const route = createRoute({
  method: "get",
  path: "/web-chats/{id}/public/conversations/{conversationId}/events/",
  tags: [WIDGET_TAG],
  summary: "Messages of a conversation as they are stored",
  description:
    "Needs the visitor token. A server-sent event stream of every message stored in the conversation from now on, in the " +
    "public form (`event: message`), such as a human agent's reply after a takeover; a `: ping` comment every 10 s. " +
    "Nothing is replayed: after a reconnection, read `messages/` again.",
  security: VISITOR_SECURITY,
  request: { params: ConversationParams },
  responses: {
    200: { description: "The messages as server-sent events", content: { "text/event-stream": { schema: z.string().openapi({ example: EXAMPLE }) } } },
    ...errorResponses(403, 404),
  },
});

export const registerWidgetLive = (r: Router) =>
  r.openapi(route, async (c) => {
    const { id, conversationId } = c.req.valid("param");
    const db = c.var.db;
    const chat = await activeWebChat(db, id);
    const visitor = await visitorOf(c.env, chat, c.req.header("Authorization"));
    const conversation = await visitorConversation(db, chat, visitor, conversationId);
    const stream = await conversationObject(c.env, conversation.id).subscribe();
    return c.body(liveMessages(stream, chat.webChat.settings), 200, SSE_HEADERS);
  });
