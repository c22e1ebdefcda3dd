import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, uuidParam } from "../../lib/openapi";
import { orgAccess, requirePermission } from "../../services/access";
import { unreadInboxes } from "../../services/inboxes";
import { dataParts } from "../../services/shards/parts";

const UnreadInbox = z
  .object({
    id: z.string().openapi({ description: "The inbox's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    name: z.string().openapi({ description: "The inbox's name", example: "Website" }),
    count: z.number().int().openapi({ description: "Its conversations with unread messages", example: 2 }),
  })
  .openapi("UnreadInbox");

const UnreadConversations = z
  .object({
    count: z.number().int().openapi({ description: "Conversations with unread messages, in every inbox", example: 3 }),
    inboxes: z.array(UnreadInbox).openapi({ description: "The inboxes that hold some, by name" }),
  })
  .openapi("UnreadConversations");

const route = createRoute({
  method: "get",
  path: "/organizations/{organizationPk}/unread-conversations/",
  tags: ["Conversations"],
  summary: "How many conversations hold unread messages",
  description:
    "Needs `conversation.view` (not `inbox.view`: an agent who reads conversations sees what waits for them). " +
    "Counts the organization's conversations holding visitors' messages no agent has read yet (`unreadCount` > 0; " +
    "test conversations never do), in all and per inbox (only inboxes with some, by name). `read/` lowers it; read " +
    "it again after the live events of `conversation-events/`.",
  request: { params: z.object({ organizationPk: uuidParam("organizationPk", "Organization id") }) },
  responses: { 200: json(UnreadConversations, "The counts"), ...errorResponses(403, 404) },
});

export const registerUnreadConversations = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await orgAccess(c, c.req.valid("param").organizationPk);
    requirePermission(access, "conversation.view");
    const parts = await dataParts(c.env, access.organizationId);
    return c.json(await unreadInboxes(c.var.db, parts, access.organizationId), 200);
  });
