import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { ApiError, fieldError } from "../../lib/errors";
import { dataParts } from "../../services/shards/parts";
import { currentAccess, orgAccess, requirePermission, type OrgAccess } from "../../services/access";
import { getVisibleChatbot } from "../../services/chatbots/visibility";
import { chatbotOrganization, createInbox } from "../../services/inboxes";
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

const noSuchChatbot = () => fieldError("chatbot", "No such assistant in your organizations.");

/** CONTRACT section 6: the organization of the inbox is its assistant's, where the caller is a member. */
async function accessForChatbot(c: Context<AppEnv>, chatbotId: string): Promise<OrgAccess> {
  const organizationId = await chatbotOrganization(c.var.db, chatbotId);
  if (!organizationId) throw noSuchChatbot();
  try {
    return await orgAccess(c, organizationId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw noSuchChatbot();
    throw err;
  }
}

export const registerCreateInbox = (r: Router) =>
  r.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const chatbotId = body.chatbot?.id ?? null;
    const access = chatbotId ? await accessForChatbot(c, chatbotId) : await currentAccess(c);
    requirePermission(access, "inbox.manage");
    if (chatbotId && !(await getVisibleChatbot(c.var.db, access, c.var.principal.userId, chatbotId)))
      throw noSuchChatbot();
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
