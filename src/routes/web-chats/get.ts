import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { authorize } from "../../services/access";
import { getWebChat } from "../../services/inboxes";
import { webChatRecord } from "../../services/records/web-chats";
import { WebChatSchema } from "../../services/records/web-chats";
import { WEB_CHATS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/web-chats/{id}/",
  tags: [WEB_CHATS_TAG],
  summary: "Get a web chat",
  description: "Needs `inbox.view`.",
  request: { params: IdParams },
  responses: { 200: json(WebChatSchema, "The web chat"), ...errorResponses(403, 404) },
});

export const registerGetWebChat = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "inbox.view");
    const view = await getWebChat(c.var.db, access.organizationId, c.req.valid("param").id);
    if (!view) throw notFound();
    return c.json(webChatRecord(view), 200);
  });
