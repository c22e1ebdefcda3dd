import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { currentAccess, requirePermission } from "../../services/access";
import { conversationObject, findConversation } from "../../services/conversations";
import { conversationRecord } from "../../services/records/conversations";
import { ConversationSchema } from "./schema";

const Body = z.object({
  autoReplyEnabled: z.boolean().openapi({ description: "false hands the conversation to a human agent; true gives it back to the assistant", example: false }),
});

const route = createRoute({
  method: "patch",
  path: "/conversations/{id}/update-auto-reply/",
  tags: ["Conversations"],
  summary: "Hand a conversation to a human agent, or back to the assistant",
  description:
    "Requires `conversation.manage`. Off: status `queued`, progressStatus `waiting_for_human`, and the assistant stays silent " +
    "until it is switched on again (status `open`, progressStatus `ai_processing`).",
  request: { params: IdParams, ...jsonBody(Body) },
  responses: { 200: json(ConversationSchema, "Updated"), ...errorResponses(400, 403, 404) },
});

export const registerUpdateAutoReply = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "conversation.manage");
    const { id } = c.req.valid("param");
    const db = c.var.db;
    if (!(await findConversation(db, access.organizationId, id))) throw notFound();
    // Through the conversation's object, which orders it after the messages already on their way.
    await conversationObject(c.env, id).setAutoReply(id, c.req.valid("json").autoReplyEnabled);
    return c.json(conversationRecord((await findConversation(db, access.organizationId, id))!), 200);
  });
