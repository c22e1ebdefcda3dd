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
  description:
    "Needs `inbox.manage`. A messaging inbox's channel is then taken off its platform as " +
    "`DELETE /inboxes/{id}/channel/` does (Telegram's webhook removed); what the platform answers never keeps " +
    "the inbox.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(400, 403, 404) },
});

export const registerDeleteInbox = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "inbox.manage");
    const { webChat, leavePlatform } = await deleteInbox(
      c.env,
      c.var.db,
      await dataParts(c.env, access.organizationId),
      access.organizationId,
      c.req.valid("param").id,
    );
    if (webChat) await removeWebChatImages(c.env, c.var.data, webChat.id);
    // After the answer: a slow or refusing platform neither holds nor stops the delete.
    c.executionCtx.waitUntil(leavePlatform());
    return c.body(null, 204);
  });
