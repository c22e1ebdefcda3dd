import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize, conversationData } from "../../services/access";
import { labelConversation } from "../../services/conversation/operator-writes";
import { conversationRecord } from "../../services/records/conversations";
import { ConversationSchema } from "../../services/records/conversations";
import { ConversationLabelsWrite, LABELS_TAG } from "./schema";

const route = createRoute({
  method: "put",
  path: "/conversations/{id}/labels/",
  tags: [LABELS_TAG],
  summary: "Set a conversation's labels",
  description:
    "Needs `conversation.manage`. The conversation carries exactly `labelIds` afterwards (empty: none). An id " +
    "that is not one of the " +
    "organization's labels is a 400 naming it, and nothing changes. The live inbox hears `conversation.updated`.",
  request: { params: IdParams, ...jsonBody(ConversationLabelsWrite) },
  responses: { 200: json(ConversationSchema, "The conversation with its labels"), ...errorResponses(400, 403, 404) },
});

export const registerSetConversationLabels = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.manage");
    const { id } = c.req.valid("param");
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    const data = await conversationData(c, id);
    const { labelIds } = c.req.valid("json");
    const view = await labelConversation(c.env, c.var.db, data, waitUntil, access.organizationId, id, labelIds);
    return c.json(conversationRecord(view), 200);
  });
