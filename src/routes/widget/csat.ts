import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { rateAsVisitor } from "../../services/widget/feedback";
import { CsatSchema, csatRecord } from "../../services/records/conversations";
import { chatVisitor } from "./visitor";
import { ConversationParams, CsatBody, VISITOR_SECURITY, WIDGET_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/web-chats/{id}/public/conversations/{conversationId}/csat/",
  tags: [WIDGET_TAG],
  summary: "Rate a resolved conversation",
  description:
    "Needs the visitor token. The widget asks once the live stream says `resolved`, and when it shows a " +
    "resolved conversation " +
    "the session's `conversations` say is not `rated`. Only a resolved conversation can be rated " +
    "(else 400 `conversation_not_resolved`). Giving it again within 7 days of the first answer replaces the " +
    "rating and comment; " +
    "later, 409. The conversation record's `csat` shows it, and the organization's live stream gets " +
    "`conversation.updated`.",
  security: VISITOR_SECURITY,
  request: { params: ConversationParams, ...jsonBody(CsatBody) },
  responses: { 200: json(CsatSchema, "The rating as stored"), ...errorResponses(400, 403, 404, 409) },
});

export const registerWidgetCsat = (r: Router) =>
  r.openapi(route, async (c) => {
    const { id, conversationId } = c.req.valid("param");
    const caller = await chatVisitor(c, id);
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    const row = await rateAsVisitor(c.env, waitUntil, caller, conversationId, c.req.valid("json"));
    return c.json(csatRecord(row)!, 200);
  });
