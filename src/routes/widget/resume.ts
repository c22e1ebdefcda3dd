import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses } from "../../lib/openapi";
import { fieldError } from "../../lib/errors";
import { SSE_HEADERS } from "../../services/sse";
import { parseEventId } from "../../services/widget/event-ids";
import { resumedReply } from "../../services/widget/resume";
import { chatVisitor } from "./visitor";
import { WidgetReplyStream } from "../../services/records/widget-events";
import { ConversationParams, VISITOR_SECURITY, WIDGET_TAG } from "./schema";

const ResumeQuery = z.object({
  lastEventId: z.string().max(100).optional().openapi({
    description: "The same as the `Last-Event-ID` header (which wins)",
    example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d:42",
  }),
});

const route = createRoute({
  method: "get",
  path: "/web-chats/{id}/public/conversations/{conversationId}/stream/",
  tags: [WIDGET_TAG],
  summary: "Resume a reply's stream after a lost connection",
  description:
    "Needs the visitor token and `Last-Event-ID: <messageId>:<characters>` (the id of the last reply event " +
    "the client " +
    "saw). Streams the text after those characters, then the rest of the reply and its final record, numbered " +
    "the same " +
    "way; a reply already stored comes back as its remainder and the final event at once. 404 when no such " +
    "reply exists or it failed. The `text/event-stream` schema gives each event's `data`.",
  security: VISITOR_SECURITY,
  request: { params: ConversationParams, query: ResumeQuery },
  responses: {
    200: {
      description: "The rest of the reply as server-sent events",
      content: { "text/event-stream": { schema: WidgetReplyStream } },
    },
    ...errorResponses(400, 403, 404),
  },
});

export const registerWidgetResume = (r: Router) =>
  r.openapi(route, async (c) => {
    const { id, conversationId } = c.req.valid("param");
    const caller = await chatVisitor(c, id);
    const last = parseEventId(c.req.header("Last-Event-ID") ?? c.req.valid("query").lastEventId);
    if (!last)
      throw fieldError(
        "lastEventId",
        "Send `Last-Event-ID: <messageId>:<characters>` as the stream numbered its events.",
      );
    const stream = await resumedReply(c.env, caller, conversationId, last, c.var.requestId);
    return c.body(stream, 200, SSE_HEADERS);
  });
