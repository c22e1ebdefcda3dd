import { z } from "@hono/zod-openapi";
import { uuidParam } from "../../lib/openapi";

export const WIDGET_TAG = "Web chat widget";
/** Routes that need the visitor token of the session endpoint. */
export const VISITOR_SECURITY = [{ WidgetToken: [] }];

export const WebChatParams = z.object({ id: uuidParam("id", "Web chat id") });
export const ConversationParams = WebChatParams.extend({
  conversationId: uuidParam("conversationId", "One of the visitor's conversations"),
});
export const MessageParams = WebChatParams.extend({
  messageId: uuidParam("messageId", "A message of one of the visitor's conversations"),
});
