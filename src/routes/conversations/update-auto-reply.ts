import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { handoffState } from "../../services/conversations";
import { changeConversation } from "./change";
import { ConversationSchema } from "../../services/records/conversations";

const Body = z.object({
  autoReplyEnabled: z.boolean().openapi({
    description: "false hands the conversation to a human agent; true gives it back to the assistant",
    example: false,
  }),
});

const route = createRoute({
  method: "patch",
  path: "/conversations/{id}/update-auto-reply/",
  tags: ["Conversations"],
  summary: "Hand a conversation to a human agent, or back to the assistant",
  description:
    "Needs `conversation.manage`. Off: status `queued`, progressStatus `waiting_for_human`, and the " +
    "assistant stays silent " +
    "until it is switched on again (hand back: status `open`, progressStatus `ai_processing`, no assignee). A " +
    "round-robin " +
    "inbox then assigns the handed-off conversation as it does an assistant's handoff; an assignee whose " +
    "place a hand back " +
    "frees is given the oldest waiting conversation of their round-robin inboxes.",
  request: { params: IdParams, ...jsonBody(Body) },
  responses: { 200: json(ConversationSchema, "Updated"), ...errorResponses(400, 403, 404) },
});

export const registerUpdateAutoReply = (r: Router) =>
  r.openapi(route, async (c) => {
    const enabled = c.req.valid("json").autoReplyEnabled;
    return c.json(await changeConversation(c, c.req.valid("param").id, () => handoffState(enabled)), 200);
  });
