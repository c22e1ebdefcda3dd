import { createRoute } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { inboxes, webChats } from "../../db/schema";
import { badRequest, notFound } from "../../lib/errors";
import { currentAccess, requirePermission } from "../../services/access";
import { getInbox } from "../../services/inboxes";
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
    const access = await currentAccess(c);
    requirePermission(access, "inbox.manage");
    const view = await getInbox(c.var.db, access.organizationId, c.req.valid("param").id);
    if (!view) throw notFound();
    if (view.inbox.isDefault)
      throw badRequest("An assistant's default inbox is deleted with its assistant.", undefined, "default_inbox");
    const id = view.inbox.id;
    await c.var.db.batch([
      c.var.db.delete(webChats).where(eq(webChats.inboxId, id)),
      c.var.db.delete(inboxes).where(and(eq(inboxes.id, id), eq(inboxes.organizationId, access.organizationId))),
    ]);
    if (view.channel) await removeWebChatImages(c.env, view.channel.id);
    return c.body(null, 204);
  });
