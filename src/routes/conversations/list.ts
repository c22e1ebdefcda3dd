import { createRoute, z } from "@hono/zod-openapi";
import { and, desc, eq, exists, gt, lt, or } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { CursorQuery, cursorPageOf, cursorResponse, decodeCursor } from "../../lib/pagination";
import { contains } from "../../lib/sql";
import { conversations, inboxes, messages } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import { selectConversationViews } from "../../services/conversations";
import { conversationRecord } from "../../services/records/conversations";
import { ConversationSchema } from "./schema";
import { notFound } from "../../lib/errors";

const Query = CursorQuery.extend({
  inbox: z.uuid().openapi({ description: "Inbox whose conversations to list (required)", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
  keyword: z.string().max(200).optional().openapi({ description: "Matches the title or any message", example: "refund" }),
});

const route = createRoute({
  method: "get",
  path: "/conversations/",
  tags: ["Conversations"],
  summary: "List an inbox's conversations, newest first",
  description: "Requires `conversation.view`. Cursor pagination.",
  request: { query: Query },
  responses: { 200: json(cursorPageOf(ConversationSchema, "ConversationPage"), "Conversations"), ...errorResponses(400, 403, 404) },
});

export const registerListConversations = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "conversation.view");
    const q = c.req.valid("query");
    const db = c.var.db;
    const [inbox] = await db.select({ id: inboxes.id }).from(inboxes).where(and(eq(inboxes.id, q.inbox), eq(inboxes.organizationId, access.organizationId)));
    if (!inbox) throw notFound("Inbox not found.");
    const cursor = decodeCursor(q.cursor);
    const keyword = q.keyword?.trim();
    const rows = await selectConversationViews(db)
      .where(
        and(
          eq(conversations.inboxId, inbox.id),
          cursor ? (cursor.d === "n" ? lt(conversations.id, String(cursor.k)) : gt(conversations.id, String(cursor.k))) : undefined,
          keyword
            ? or(
                contains(conversations.title, keyword),
                exists(db.select({ id: messages.id }).from(messages).where(and(eq(messages.conversationId, conversations.id), contains(messages.content, keyword)))),
              )
            : undefined,
        ),
      )
      .orderBy(cursor?.d === "p" ? conversations.id : desc(conversations.id))
      .limit(q.pageSize + 1);
    return c.json(cursorResponse(c, cursor, q.pageSize, rows.map(conversationRecord), (r) => r.id), 200);
  });
