import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { dataParts } from "../../services/shards/parts";
import { createInbox, inboxCreatorAccess } from "../../services/inboxes";
import { InboxWrite, inboxRecord } from "../../services/records/inboxes";
import { INBOXES_TAG, InboxSchema } from "./schema";

const route = createRoute({
  method: "post",
  path: "/inboxes/",
  tags: [INBOXES_TAG],
  summary: "Create an inbox",
  description:
    "Needs `inbox.manage`. An inbox with an assistant belongs to the assistant's organization (the caller " +
    "needs the permission there), " +
    "whatever organization the request otherwise acts in. A `web` inbox gets its web chat (public, default " +
    "settings) in the same write.",
  request: jsonBody(InboxWrite),
  responses: { 201: json(InboxSchema, "The created inbox"), ...errorResponses(400, 403, 404) },
});

export const registerCreateInbox = (r: Router) =>
  r.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const chatbotId = body.chatbot?.id ?? null;
    const access = await inboxCreatorAccess(c, chatbotId);
    const inbox = await createInbox(c.var.db, await dataParts(c.env, access.organizationId), {
      organizationId: access.organizationId,
      name: body.name,
      channelType: body.channelType,
      chatbotId,
      businessHours: body.businessHours ?? null,
      assignment: body.assignment ?? null,
    });
    return c.json(inboxRecord(inbox), 201);
  });
