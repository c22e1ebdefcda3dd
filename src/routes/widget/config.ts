import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { publicWebChat } from "../../services/widget/web-chats";
import { publicConfig } from "../../services/records/widget";
import { PublicConfigSchema } from "../../services/records/widget";
import { WIDGET_TAG, WebChatParams } from "./schema";

const route = createRoute({
  method: "get",
  path: "/web-chats/{id}/public/config/",
  tags: [WIDGET_TAG],
  summary: "What the widget shows: texts, theme and switches",
  description:
    "No key or token. Only what the widget needs (no keys, no ids of other resources). An inactive web chat answers " +
    "`isActive: false` so that the widget can show a closed notice; its other public endpoints refuse with " +
    "403 `web_chat_inactive`.",
  security: [],
  request: { params: WebChatParams },
  responses: { 200: json(PublicConfigSchema, "The widget's configuration"), ...errorResponses(404) },
});

export const registerWidgetConfig = (r: Router) =>
  r.openapi(route, async (c) => {
    const chat = await publicWebChat(c.var.db, c.req.valid("param").id);
    if (!chat) throw notFound("Web chat not found.");
    return c.json(publicConfig(chat), 200, { "Cache-Control": "public, max-age=10" });
  });
