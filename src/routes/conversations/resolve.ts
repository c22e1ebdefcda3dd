import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { resolvedState } from "../../services/conversations";
import { changeConversation } from "./change";
import { ConversationSchema } from "./schema";

const route = createRoute({
  method: "post",
  path: "/conversations/{id}/resolve/",
  tags: ["Conversations"],
  summary: "Resolve a conversation",
  description:
    "Requires `conversation.manage`. Status and progressStatus become `resolved`; auto reply and the assignee stay as they " +
    "are. A visitor's next message reopens it: answered by the assistant when auto reply is on, else queued for a human.",
  request: { params: IdParams },
  responses: { 200: json(ConversationSchema, "Resolved"), ...errorResponses(403, 404) },
});

export const registerResolveConversation = (r: Router) => r.openapi(route, async (c) => c.json(await changeConversation(c, c.req.valid("param").id, () => resolvedState, "resolved"), 200));
