import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { visitorConversation } from "../../services/widget/visitors";
import { conversationHistory } from "../../services/widget/messages";
import { PublicMessageSchema } from "../../services/records/widget";
import { chatVisitor } from "./visitor";
import { ConversationParams, VISITOR_SECURITY, WIDGET_TAG } from "./schema";

const HistoryQuery = z.object({
  before: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .openapi({ description: "Only messages before this sequence (older pages)", example: 41 }),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(50)
    .openapi({ description: "At most this many (1..100, default 50)", example: 50 }),
});

const route = createRoute({
  method: "get",
  path: "/web-chats/{id}/public/conversations/{conversationId}/messages/",
  tags: [WIDGET_TAG],
  summary: "A conversation's messages, oldest first",
  description:
    "The latest `pageSize` messages (before `before`), oldest first; `hasMore` when older ones exist. Needs " +
    "the visitor token; another visitor's conversation is 404.",
  security: VISITOR_SECURITY,
  request: { params: ConversationParams, query: HistoryQuery },
  responses: {
    200: json(
      z
        .object({
          results: z.array(PublicMessageSchema).openapi({ description: "The messages, oldest first" }),
          hasMore: z.boolean().openapi({ description: "Older messages exist", example: false }),
        })
        .openapi("WidgetHistory"),
      "Messages",
    ),
    ...errorResponses(400, 403, 404),
  },
});

export const registerWidgetHistory = (r: Router) =>
  r.openapi(route, async (c) => {
    const { id, conversationId } = c.req.valid("param");
    const { before, pageSize } = c.req.valid("query");
    const { chat, visitor } = await chatVisitor(c, id);
    const conversation = await visitorConversation(c.env, chat, visitor, conversationId);
    return c.json(await conversationHistory(c.env, conversation, chat.webChat.settings, before, pageSize), 200);
  });
