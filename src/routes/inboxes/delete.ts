import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { dataParts } from "../../services/shards/parts";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { deleteInbox } from "../../services/inboxes";
import { removeWebChatImages } from "../../services/uploads/web-chat-images";
import { INBOXES_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/inboxes/{id}/",
  tags: [INBOXES_TAG],
  summary: "Delete an inbox and its web chat",
  description: "Needs `inbox.manage`.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(400, 403, 404) },
});

export const registerDeleteInbox = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "inbox.manage");
    const channel = await deleteInbox(
      c.var.db,
      await dataParts(c.env, access.organizationId),
      access.organizationId,
      c.req.valid("param").id,
    );
    if (channel) await removeWebChatImages(c.env, c.var.data, channel.id);
    return c.body(null, 204);
  });
