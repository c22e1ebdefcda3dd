import { createRoute, z } from "@hono/zod-openapi";
import { and, count, desc, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { contains } from "../../lib/sql";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { CHANNEL_TYPES, inboxes } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import { selectInboxes } from "../../services/inboxes";
import { inboxRecord } from "../../services/records/inboxes";
import { INBOXES_TAG, InboxSchema } from "./schema";

const ListQuery = PageQuery.extend({
  channelType: z
    .enum(CHANNEL_TYPES)
    .optional()
    .openapi({ description: "Only inboxes of this platform", example: "web" }),
  chatbot: z
    .uuid()
    .optional()
    .openapi({ description: "Only inboxes of this assistant", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
  query: z.string().max(200).optional().openapi({ description: "Part of the name (case-insensitive)", example: "web" }),
});

const route = createRoute({
  method: "get",
  path: "/inboxes/",
  tags: [INBOXES_TAG],
  summary: "List the organization's inboxes",
  description:
    "Newest first. Needs `inbox.view`. `unreadConversationsCount` counts conversations with unread messages.",
  request: { query: ListQuery },
  responses: { 200: json(pageOf(InboxSchema, "InboxPage"), "Page of inboxes"), ...errorResponses(400, 403, 404) },
});

/** `%` and `_` in the search text are literal characters, not LIKE wildcards. */

export const registerListInboxes = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "inbox.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const where = and(
      eq(inboxes.organizationId, access.organizationId),
      q.channelType ? eq(inboxes.channelType, q.channelType) : undefined,
      q.chatbot ? eq(inboxes.chatbotId, q.chatbot) : undefined,
      q.query ? contains(inboxes.name, q.query) : undefined,
    );
    const [[{ n }], rows] = await Promise.all([
      c.var.db.select({ n: count() }).from(inboxes).where(where),
      selectInboxes(c.var.db)
        .where(where)
        .orderBy(desc(inboxes.createdAt), desc(inboxes.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    return c.json(pageResponse(c, p, n, rows.map(inboxRecord)), 200);
  });
