import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { SSE_HEADERS } from "../../services/sse";
import { visitorLiveStream } from "../../services/widget/live";
import { WidgetLiveStream } from "../../services/records/widget-events";
import { ConversationParams, VISITOR_SECURITY, WIDGET_TAG } from "./schema";

const LiveHeaders = z.object({
  "last-event-id": z
    .uuid("Last-Event-ID must be the id of a message event this stream sent (a UUID)")
    .optional()
    .openapi({
      description: "The `id:` of the last `message` event read: the messages stored after it are sent first",
      example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
    }),
});

const route = createRoute({
  method: "get",
  path: "/web-chats/{id}/public/conversations/{conversationId}/events/",
  tags: [WIDGET_TAG],
  summary: "Messages of a conversation as they are stored",
  description:
    "Needs the visitor token. A server-sent event stream of every message stored in the conversation from now " +
    "on, in the " +
    "public form (`event: message`, `id:` the message's id), such as a human agent's reply after a takeover; " +
    "`event: status` " +
    "`{status, progressStatus, agent}` first, the conversation's state when the stream opens, then whenever an " +
    "operator changes who serves it (`agent` `{name, avatar}` while " +
    "a human serves, " +
    "else null); then `event: replying` `{replying}`, whether the assistant is composing a reply now (such as " +
    "the answer to a message sent before a reload), and again each time a reply begins or ends (a stored " +
    "reply's `message` event comes first; `false` alone is a reply that failed); " +
    "a `: ping` comment every 10 s. The stream ends after `WIDGET_STREAM_MAX_MS` (10 minutes by " +
    "default): open it " +
    "again with `Last-Event-ID` (the `id:` of the last message event read), and the messages stored since (up " +
    "to 100) come " +
    "first, each once. It ends sooner, with `event: error` `{code, detail}`, when the token is no longer taken (the " +
    "web chat made private or closed, a new identity secret): checked every " +
    "`INBOX_STREAM_RECHECK_MS`. The `text/event-stream` schema gives each event's `data`.",
  security: VISITOR_SECURITY,
  request: { params: ConversationParams, headers: LiveHeaders },
  responses: {
    200: {
      description: "The messages as server-sent events",
      content: { "text/event-stream": { schema: WidgetLiveStream } },
    },
    ...errorResponses(400, 403, 404),
  },
});

export const registerWidgetLive = (r: Router) =>
  r.openapi(route, async (c) => {
    const { id, conversationId } = c.req.valid("param");
    // The checks the stream is opened with, asked again while it stays open (visitorStreamLost).
    const opened = [c.env, c.var.db, id, conversationId, c.req.header("Authorization")] as const;
    const stream = await visitorLiveStream(opened, c.req.valid("header")["last-event-id"]);
    return c.body(stream, 200, SSE_HEADERS);
  });
