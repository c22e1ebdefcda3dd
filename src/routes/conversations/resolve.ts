import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { resolvedState } from "../../services/conversations";
import { currentAccess } from "../../services/access";
import { askForRating } from "../../services/conversation/csat";
import { changeConversation } from "./change";
import { ConversationSchema } from "../../services/records/conversations";

const route = createRoute({
  method: "post",
  path: "/conversations/{id}/resolve/",
  tags: ["Conversations"],
  summary: "Resolve a conversation",
  description:
    "Needs `conversation.manage`. Status and progressStatus become `resolved`; auto reply and the assignee " +
    "stay as they " +
    "are. The assignee's place is free again: they are given the oldest waiting conversation of their " +
    "round-robin inboxes. " +
    "A visitor's next message reopens it: answered by the assistant when auto reply is on, else queued for a human. " +
    "The visitor is asked for a satisfaction rating (`csat` of the record): the widget asks on its own; on a " +
    "messaging channel the " +
    "assistant's side sends the question with buttons 1-5, and the answer to it is kept as the rating, not " +
    "taken as a new message.",
  request: { params: IdParams },
  responses: { 200: json(ConversationSchema, "Resolved"), ...errorResponses(403, 404) },
});

export const registerResolveConversation = (r: Router) =>
  r.openapi(route, async (c) => {
    const record = await changeConversation(c, c.req.valid("param").id, () => resolvedState, "resolved");
    await askForRating(c.env, c.var.db, {
      id: record.id,
      // As changeConversation found the conversation (remembered: no second read).
      organizationId: (await currentAccess(c)).organizationId,
      inboxId: record.inbox.id,
      chatbotId: record.chatbot?.id ?? null,
    });
    return c.json(record, 200);
  });
