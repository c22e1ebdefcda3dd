import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { createWebChat } from "../../services/web-chats";
import { WebChatCreate, WebChatSchema } from "../../services/records/web-chats";
import { IMAGE_NOTE, WEB_CHATS_TAG } from "./schema";

const route = createRoute({
  method: "post",
  path: "/web-chats/",
  tags: [WEB_CHATS_TAG],
  summary: "Create the web chat of a web inbox",
  description:
    "Needs `inbox.manage`. `inbox` must be a `web` inbox of the organization (400) without a web chat (409); " +
    "creating a web inbox already creates its web chat. Unset fields take the defaults of a new web chat. " +
    IMAGE_NOTE,
  request: jsonBody(WebChatCreate),
  responses: { 201: json(WebChatSchema, "The created web chat"), ...errorResponses(400, 403, 404, 409) },
});

export const registerCreateWebChat = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "inbox.manage");
    const origin = new URL(c.req.url).origin;
    return c.json(
      await createWebChat(c.env, c.var.db, c.var.data, access.organizationId, c.req.valid("json"), origin),
      201,
    );
  });
