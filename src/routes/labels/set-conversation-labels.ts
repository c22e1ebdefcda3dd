import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { authorize, conversationData } from "../../services/access";
import { findConversation } from "../../services/conversation/views";
import { conversationEvent, publishInboxEvents } from "../../services/conversation/inbox-events";
import { setConversationLabels } from "../../services/labels";
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
    const db = c.var.db;
    const data = await conversationData(c, id);
    if (!(await findConversation(db, data, access.organizationId, id))) throw notFound();
    await setConversationLabels(db, data, access.organizationId, id, c.req.valid("json").labelIds);
    // Deleted since (its links went with it): a 404, as a read after the delete is.
    const view = await findConversation(db, data, access.organizationId, id);
    if (!view) throw notFound();
    // Labels are not part of the stream's conversation record: the console reads the record again on this event.
    c.executionCtx.waitUntil(
      publishInboxEvents(c.env, access.organizationId, conversationEvent("conversation.updated", view.conversation)),
    );
    return c.json(conversationRecord(view), 200);
  });
