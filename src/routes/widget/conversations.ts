import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { visitorConversations } from "../../services/widget/visitors";
import { VisitorConversationSchema } from "../../services/records/widget";
import { chatVisitor } from "./visitor";
import { VISITOR_SECURITY, WIDGET_TAG, WebChatParams } from "./schema";
import { dataParts } from "../../services/shards/parts";

const route = createRoute({
  method: "get",
  path: "/web-chats/{id}/public/conversations/",
  tags: [WIDGET_TAG],
  summary: "The visitor's conversations",
  description: "Latest first, at most 20. Needs the visitor token.",
  security: VISITOR_SECURITY,
  request: { params: WebChatParams },
  responses: {
    200: json(
      z
        .object({
          results: z
            .array(VisitorConversationSchema)
            .openapi({ description: "The visitor's conversations, latest first, at most 20" }),
        })
        .openapi("WidgetConversations"),
      "The visitor's conversations",
    ),
    ...errorResponses(403, 404),
  },
});

export const registerWidgetConversations = (r: Router) =>
  r.openapi(route, async (c) => {
    const { chat, visitor } = await chatVisitor(c, c.req.valid("param").id);
    const parts = await dataParts(c.env, chat.webChat.organizationId);
    return c.json({ results: await visitorConversations(parts, chat, visitor.contactId) }, 200);
  });
