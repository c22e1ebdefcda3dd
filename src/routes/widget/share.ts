import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { activeWebChat } from "../../services/widget/web-chats";
import { sharedConversation, shareToken } from "../../services/widget/share";
import { PublicMessageSchema } from "../../services/records/widget";
import { chatVisitor } from "./visitor";
import { ConversationParams, VISITOR_SECURITY, WIDGET_TAG } from "./schema";

const createShare = createRoute({
  method: "post",
  path: "/web-chats/{id}/public/conversations/{conversationId}/share/",
  tags: [WIDGET_TAG],
  summary: "A read-only link to one of the visitor's conversations",
  description:
    "Needs the visitor token and `enableShareConversation` (403 otherwise). The link shows the conversation " +
    "as it is when opened, read-only.",
  security: VISITOR_SECURITY,
  request: { params: ConversationParams },
  responses: {
    200: json(
      z
        .object({
          url: z.string().openapi({
            description: "The full-page chat showing the conversation read-only",
            example: "https://chat.example.com/chat/0190.../?share=0190....sig",
          }),
          share: z.string().openapi({ description: "The share token of `shared/{share}/`", example: "0190....sig" }),
        })
        .openapi("WidgetShare"),
      "The share link",
    ),
    ...errorResponses(403, 404, 503),
  },
});

const SharedParams = z.object({
  id: z.string().openapi({
    param: { name: "id", in: "path" },
    description: "Web chat id",
    example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
  }),
  share: z
    .string()
    .max(200)
    .openapi({
      param: { name: "share", in: "path" },
      description: "Share token from the share endpoint",
      example: "0190....sig",
    }),
});

const readShared = createRoute({
  method: "get",
  path: "/web-chats/{id}/public/shared/{share}/",
  tags: [WIDGET_TAG],
  summary: "A shared conversation, read-only",
  description:
    "No key or token: the share token is the permission. 404 for a bad token or when sharing was switched off since.",
  security: [],
  request: { params: SharedParams },
  responses: {
    200: json(
      z
        .object({
          title: z.string().openapi({ description: "Conversation title", example: "Opening hours?" }),
          results: z.array(PublicMessageSchema).openapi({ description: "Messages, oldest first (at most 200)" }),
        })
        .openapi("WidgetShared"),
      "The shared conversation",
    ),
    ...errorResponses(403, 404),
  },
});

export const registerWidgetShare = (r: Router) => {
  r.openapi(createShare, async (c) => {
    const { id, conversationId } = c.req.valid("param");
    const { chat, visitor } = await chatVisitor(c, id);
    const share = await shareToken(c.env, chat, visitor, conversationId);
    const url = new URL(`/chat/${chat.webChat.id}/`, c.req.url);
    url.searchParams.set("share", share);
    return c.json({ url: url.toString(), share }, 200);
  });
  r.openapi(readShared, async (c) => {
    const { id, share } = c.req.valid("param");
    // The web chat (`DB`, cached) names the organization whose data plane holds the conversation.
    const chat = await activeWebChat(c.var.db, id);
    return c.json(await sharedConversation(c.env, chat, share), 200);
  });
};
