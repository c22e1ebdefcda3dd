import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, IdempotencyHeaders, jsonBody } from "../../lib/openapi";
import { SSE_HEADERS } from "../../services/sse";
import { SendBody } from "../../services/records/widget";
import { sendVisitorMessage } from "../../services/widget/send";
import { chatVisitor } from "./visitor";
import { WidgetReplyStream } from "../../services/records/widget-events";
import { VISITOR_SECURITY, WIDGET_TAG, WebChatParams } from "./schema";

const route = createRoute({
  method: "post",
  path: "/web-chats/{id}/public/messages/",
  tags: [WIDGET_TAG],
  summary: "Send a visitor's message; the reply streams back",
  description:
    "Needs the visitor token. Ordered and answered by the conversation's Durable Object like a streamed completion " +
    "(CONTRACT section 7), with an `id: <messageId>:<characters so far>` on every reply event (for " +
    "`Last-Event-ID` on " +
    "`conversations/{conversationId}/stream/`), the public message record in the last event, and `event: " +
    "error` on failure. With `enableFileUpload`, " +
    "`attachments` name files the visitor uploaded through `uploads/` (all are checked before any is written; " +
    "a foreign URL " +
    "or a key that is not the visitor's own upload is 400 and never fetched); without it, files are 403 " +
    "`file_upload_disabled`. The `text/event-stream` schema gives each event's `data`.",
  security: VISITOR_SECURITY,
  request: { params: WebChatParams, headers: IdempotencyHeaders, ...jsonBody(SendBody) },
  responses: {
    200: {
      description: "The reply as server-sent events",
      content: { "text/event-stream": { schema: WidgetReplyStream } },
    },
    ...errorResponses(400, 403, 404, 409, 422, 503),
  },
});

export const registerWidgetSend = (r: Router) =>
  r.openapi(route, async (c) => {
    const { chat, visitor, data } = await chatVisitor(c, c.req.valid("param").id);
    const events = await sendVisitorMessage(c.env, c.var.db, data, chat, visitor, c.req.valid("json"), {
      idempotencyKey: c.req.valid("header")["idempotency-key"],
      origin: new URL(c.req.url).origin,
      requestId: c.var.requestId,
      waitUntil: (p) => c.executionCtx.waitUntil(p),
    });
    return c.body(events, 200, SSE_HEADERS);
  });
