import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { dataDb } from "../../services/shards";
import { activeWebChat } from "../../services/widget/web-chats";
import { startSession } from "../../services/widget/visitors";
import { SessionBody, SessionSchema } from "../../services/records/widget";
import { WIDGET_TAG, WebChatParams } from "./schema";

const route = createRoute({
  method: "post",
  path: "/web-chats/{id}/public/session/",
  tags: [WIDGET_TAG],
  summary: "Start or resume a visitor's session",
  description:
    "No key. Returns a visitor token (2 hours; renew by sending it back here, up to 30 days after it lapsed) " +
    "scoped to this " +
    "web chat and the visitor's own conversations. A private web chat needs `contact.sourceId` with " +
    "`contact.identityToken`, " +
    "the hex HMAC-SHA256 of `sourceId` with the web chat's identity secret (401 otherwise). An identified " +
    "token lapses at `identityExpiresAt` when that comes sooner, and when the identity secret is replaced; " +
    "anonymous tokens stop when the web chat is made private. A public web chat " +
    "without " +
    "`enableAnonymous` asks a new visitor for a name or an e-mail (400 `contact.email`).",
  security: [],
  // Every field is optional: an anonymous visitor may send no body at all.
  request: { params: WebChatParams, body: { ...jsonBody(SessionBody).body, required: false } },
  responses: { 200: json(SessionSchema, "The visitor's session"), ...errorResponses(400, 403, 404, 503) },
});

export const registerWidgetSession = (r: Router) =>
  r.openapi(route, async (c) => {
    const chat = await activeWebChat(c.var.db, c.req.valid("param").id);
    const data = await dataDb(c.env, chat.webChat.organizationId);
    return c.json(await startSession(c.env, data, chat, c.req.valid("json")), 200);
  });
