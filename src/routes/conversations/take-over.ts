import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { takeOverState } from "../../services/conversations";
import { changeConversation } from "./change";
import { ConversationSchema } from "../../services/records/conversations";

const route = createRoute({
  method: "post",
  path: "/conversations/{id}/take-over/",
  tags: ["Conversations"],
  summary: "Take a conversation over as a human agent",
  description:
    "Needs `conversation.manage`. The assistant stops answering (`autoReplyEnabled` false), progressStatus " +
    "becomes " +
    "`human_serving`, status `open`, and the caller is the assignee. Reply with `POST /messages/outgoing/`; " +
    "hand back with " +
    "`PATCH update-auto-reply/` `{autoReplyEnabled: true}`, or `resolve/`.",
  request: { params: IdParams },
  responses: { 200: json(ConversationSchema, "Taken over"), ...errorResponses(403, 404) },
});

export const registerTakeOver = (r: Router) =>
  r.openapi(route, async (c) => c.json(await changeConversation(c, c.req.valid("param").id, takeOverState), 200));
