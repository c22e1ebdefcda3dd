import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { PageQuery, pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { dataParts } from "../../services/shards/parts";
import { authorize } from "../../services/access";
import { listInboxes } from "../../services/inboxes";
import { ChannelTypeSchema } from "../../services/records/inboxes";
import { INBOXES_TAG, InboxSchema } from "./schema";

const ListQuery = PageQuery.extend({
  channelType: ChannelTypeSchema.optional().openapi({ description: "Only inboxes of this platform", example: "web" }),
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
    "Needs `inbox.view`. Newest first. `unreadConversationsCount` counts conversations with unread messages.",
  request: { query: ListQuery },
  responses: { 200: json(pageOf(InboxSchema, "InboxPage"), "Page of inboxes"), ...errorResponses(400, 403, 404) },
});

/** `%` and `_` in the search text are literal characters, not LIKE wildcards. */

export const registerListInboxes = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "inbox.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const page = await listInboxes(
      c.var.db,
      await dataParts(c.env, access.organizationId),
      access.organizationId,
      q,
      p,
    );
    return c.json(pageResponse(c, p, page.count, page.items), 200);
  });
