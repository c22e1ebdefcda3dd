import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { CursorQuery, cursorPageOf, cursorResponse, decodeCursor } from "../../lib/pagination";
import { authorize, requireConversation } from "../../services/access";
import { listMessages } from "../../services/messages";
import { MessageSchema } from "../../services/records/messages";

const Query = CursorQuery.extend({
  conversation: z
    .uuid()
    .openapi({ description: "Conversation (required)", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
});

const route = createRoute({
  method: "get",
  path: "/messages/",
  tags: ["Conversations"],
  summary: "List a conversation's messages, newest first",
  description: "Needs `conversation.view`. Cursor pagination over the conversation's sequence.",
  request: { query: Query },
  responses: { 200: json(cursorPageOf(MessageSchema, "MessagePage"), "Messages"), ...errorResponses(400, 403, 404) },
});

export const registerListMessages = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.view");
    const q = c.req.valid("query");
    await requireConversation(c, q.conversation, "Conversation not found.");
    const cursor = decodeCursor(q.cursor);
    const rows = await listMessages(
      c.env,
      new URL(c.req.url).origin,
      access.organizationId,
      q.conversation,
      cursor,
      q.pageSize,
    );
    return c.json(
      cursorResponse(c, cursor, q.pageSize, rows, (m) => m.sequence),
      200,
    );
  });
