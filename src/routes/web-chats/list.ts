import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { listWebChats } from "../../services/inboxes";
import { WebChatSchema } from "../../services/records/web-chats";
import { WEB_CHATS_TAG } from "./schema";

const ListQuery = PageQuery.extend({
  inbox: z
    .uuid()
    .optional()
    .openapi({ description: "Only the web chat of this inbox", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
});

const route = createRoute({
  method: "get",
  path: "/web-chats/",
  tags: [WEB_CHATS_TAG],
  summary: "List the organization's web chats",
  description: "Needs `inbox.view`. Newest first.",
  request: { query: ListQuery },
  responses: { 200: json(pageOf(WebChatSchema, "WebChatPage"), "Page of web chats"), ...errorResponses(400, 403, 404) },
});

export const registerListWebChats = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "inbox.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const page = await listWebChats(c.var.db, access.organizationId, q.inbox, p);
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
