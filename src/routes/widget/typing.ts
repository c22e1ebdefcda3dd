import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, jsonBody } from "../../lib/openapi";
import { ApiError } from "../../lib/errors";
import { takeToken } from "../../services/rate-limit";
import { visitorConversation, visitorName } from "../../services/widget/visitors";
import { visitorTyping } from "../../services/conversation/typing";
import { TypingBody } from "../conversations/typing";
import { chatVisitor } from "./visitor";
import { ConversationParams, VISITOR_SECURITY, WIDGET_TAG } from "./schema";

/** Typing signals a minute one visitor may send (the widget sends one every 3 s at most while typing, and one on
 * stopping). */
export const TYPING_PER_MINUTE = 40;

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
    const { chat, visitor, data } = await chatVisitor(c, id);
    const { allowed, retryAfter } = takeToken(
      c.env,
      `widget-typing:${visitor.contactId}`,
      Date.now(),
      TYPING_PER_MINUTE,
    );
    if (!allowed)
      throw new ApiError(
        429,
        "throttled",
        `Too many typing signals. Expected available in ${retryAfter} seconds.`,
        undefined,
        { "Retry-After": String(retryAfter) },
      );
    const conversation = await visitorConversation(c.env, chat, visitor, conversationId);
    const sender = { type: "contact" as const, id: visitor.contactId, name: await visitorName(data, visitor) };
    c.executionCtx.waitUntil(visitorTyping(c.env, conversation, sender, c.req.valid("json").typing));
    return c.body(null, 204);
  });
