import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { currentAccess, requirePermission } from "../../services/access";
import { getInbox, inboxInserts, requireChatbotOf } from "../../services/inboxes";
import { INBOXES_TAG, InboxSchema, InboxWrite, inboxRecord } from "./schema";

const route = createRoute({
  method: "post",
  path: "/inboxes/",
  tags: [INBOXES_TAG],
  summary: "Create an inbox",
  description: "Needs `inbox.manage`. A `web` inbox gets its web chat (public, default settings) in the same write.",
  request: jsonBody(InboxWrite),
  responses: { 201: json(InboxSchema, "The created inbox"), ...errorResponses(400, 403, 404) },
});

export const registerCreateInbox = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "inbox.manage");
    const body = c.req.valid("json");
    const chatbotId = body.chatbot?.id ?? null;
    if (chatbotId) await requireChatbotOf(c.var.db, access.organizationId, chatbotId);
    const { id, statements } = inboxInserts(c.var.db, {
      organizationId: access.organizationId,
      name: body.name,
      channelType: body.channelType,
      chatbotId,
    });
    await c.var.db.batch(statements);
    return c.json(inboxRecord((await getInbox(c.var.db, access.organizationId, id))!), 201);
  });
