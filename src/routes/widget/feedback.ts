import { createRoute, z } from "@hono/zod-openapi";
import { and, eq, inArray } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { conversations, messages } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { activeWebChat } from "../../services/widget/web-chats";
import { visitorOf } from "../../services/widget/visitors";
import { publicMessage } from "../../services/widget/messages";
import { MessageParams, PublicMessageSchema, VISITOR_SECURITY, WIDGET_TAG } from "./schema";

const FeedbackBody = z
  .object({
    feedback: z.enum(["like", "dislike"]).nullable().openapi({ description: "like, dislike, or null to take it back", example: "like" }),
  })
  .openapi("WidgetFeedback");

const route = createRoute({
  method: "post",
  path: "/web-chats/{id}/public/messages/{messageId}/feedback/",
  tags: [WIDGET_TAG],
  summary: "Like or dislike an answer",
  description: "Needs the visitor token. Only the assistant's answers in the visitor's own conversations (else 404).",
  security: VISITOR_SECURITY,
  request: { params: MessageParams, ...jsonBody(FeedbackBody) },
  responses: { 200: json(PublicMessageSchema, "The answer with its feedback"), ...errorResponses(400, 403, 404) },
});

export const registerWidgetFeedback = (r: Router) =>
  r.openapi(route, async (c) => {
    const { id, messageId } = c.req.valid("param");
    const chat = await activeWebChat(c.var.db, id);
    const visitor = await visitorOf(c.env, chat, c.req.header("Authorization"));
    const mine = c.var.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.inboxId, chat.inboxId), eq(conversations.contactId, visitor.contactId)));
    // One conditional update: the message must be an answer in one of the visitor's conversations.
    const [row] = await c.var.db
      .update(messages)
      .set({ feedback: c.req.valid("json").feedback })
      .where(and(eq(messages.id, messageId), eq(messages.senderType, "chatbot"), inArray(messages.conversationId, mine)))
      .returning();
    if (!row) throw notFound("Message not found.");
    return c.json(publicMessage(row, chat.webChat.settings), 200);
  });
