import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, jsonBody } from "../../lib/openapi";
import { visitorTypingSignal } from "../../services/widget/typing";
import { TypingBody } from "../conversations/typing";
import { chatVisitor } from "./visitor";
import { ConversationParams, VISITOR_SECURITY, WIDGET_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/web-chats/{id}/public/conversations/{conversationId}/typing/",
  tags: [WIDGET_TAG],
  summary: "Tell the operators that the visitor is typing",
  description:
    "Needs the visitor token. Nothing is stored: the organization's live stream (`conversation-events/`) gets " +
    "`conversation.typing` " +
    '`{conversationId, typing, sender: {type: "contact", id, name}}`. Send `true` at most every 3 s while ' +
    "typing and `false` once " +
    "stopped or sent; more than 40 a minute are refused (429 `throttled`).",
  security: VISITOR_SECURITY,
  request: { params: ConversationParams, ...jsonBody(TypingBody) },
  responses: { 204: { description: "Told" }, ...errorResponses(400, 403, 404, 429) },
});

export const registerWidgetTyping = (r: Router) =>
  r.openapi(route, async (c) => {
    const { id, conversationId } = c.req.valid("param");
    const { data, ...caller } = await chatVisitor(c, id);
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    await visitorTypingSignal(c.env, data, waitUntil, caller, conversationId, c.req.valid("json").typing);
    return c.body(null, 204);
  });
