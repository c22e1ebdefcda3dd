import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { notFound } from "../../lib/errors";
import { dataParts } from "../../services/shards/parts";
import { authorize } from "../../services/access";
import { getInbox } from "../../services/inboxes";
import { inboxRecord } from "../../services/records/inboxes";
import { INBOXES_TAG, InboxSchema } from "./schema";

const route = createRoute({
  method: "get",
  path: "/inboxes/{id}/",
  tags: [INBOXES_TAG],
  summary: "Get an inbox",
  description: "Needs `inbox.view`. `unreadConversationsCount` counts conversations with unread messages.",
  request: { params: IdParams },
  responses: { 200: json(InboxSchema, "The inbox"), ...errorResponses(403, 404) },
});

export const registerGetInbox = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "inbox.view");
    const view = await getInbox(
      c.var.db,
      await dataParts(c.env, access.organizationId),
      access.organizationId,
      c.req.valid("param").id,
    );
    if (!view) throw notFound();
    return c.json(inboxRecord(view), 200);
  });
