import { createRoute, z } from "@hono/zod-openapi";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { CursorQuery, cursorPageOf, cursorResponse, decodeCursor } from "../../lib/pagination";
import { parseDate } from "../../lib/time";
import { conversations, inboxes } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import { selectConversationViews } from "../../services/conversations";
import { keywordCondition } from "../../services/conversation/search";
import { hasLabel } from "../../services/labels";
import { listOrder, viewCondition } from "../../services/assignment/views";
import { conversationRecord } from "../../services/records/conversations";
import { ConversationSchema } from "./schema";
import { notFound } from "../../lib/errors";

const uuid = (description: string) =>
  z.uuid().optional().openapi({ description, example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" });
const day = (description: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD")
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "Not a date")
    .optional()
    .openapi({ description, example: "2026-01-31" });

const Query = CursorQuery.extend({
  inbox: uuid("Only this inbox's conversations (404 when it is not the organization's); absent: every inbox"),
  chatbot: uuid("Only conversations with this assistant"),
  contact: uuid("Only this contact's conversations"),
  status: ConversationSchema.shape.status
    .optional()
    .openapi({ description: "open, queued or resolved", example: "open" }),
  progressStatus: ConversationSchema.shape.progressStatus.optional().openapi({
    description: "ai_processing, waiting_for_human, human_serving, resolved or open",
    example: "human_serving",
  }),
  startDate: day("Created on or after this day (UTC), YYYY-MM-DD"),
  endDate: day("Created on or before this day (UTC), YYYY-MM-DD"),
  keyword: z
    .string()
    .max(200)
    .optional()
    .openapi({
      description:
        "Full-text search: every word (split on spaces) is found in the title, in a message (private notes included) or in the contact's name; " +
        "case-insensitive substrings in any script (Chinese needs no spaces); words of 3 or more characters use the full-text index",
      example: "refund",
    }),
  label: uuid("Only conversations carrying this label"),
  assignee: z
    .union([z.uuid(), z.enum(["me", "none"])])
    .optional()
    .openapi({
      description: "Assigned to this member (user id), to the caller (`me`) or to no one (`none`)",
      example: "me",
    }),
  team: uuid("Only conversations of this team (group)"),
  view: z.enum(["mine", "unassigned", "waiting"]).optional().openapi({
    description:
      "`mine`: assigned to the caller, not resolved; `unassigned`: no assignee, not resolved (with `team`: the team's); `waiting`: queued for a person, longest waiting first",
    example: "waiting",
  }),
  isTest: z.enum(["true", "false"]).optional().openapi({
    description: "`true`: only test conversations (the console's try-it); `false`: none of them; absent: both",
    example: "false",
  }),
});

const route = createRoute({
  method: "get",
  path: "/conversations/",
  tags: ["Conversations"],
  summary: "List the organization's conversations, newest first",
  description:
    "Requires `conversation.view`. Cursor pagination. Every filter is optional and they combine. `view=waiting` sorts by `waitingSince`, oldest first.",
  request: { query: Query },
  responses: {
    200: json(cursorPageOf(ConversationSchema, "ConversationPage"), "Conversations"),
    ...errorResponses(400, 403, 404),
  },
});

export const registerListConversations = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "conversation.view");
    const q = c.req.valid("query");
    const db = c.var.db;
    if (q.inbox) {
      const [inbox] = await db
        .select({ id: inboxes.id })
        .from(inboxes)
        .where(and(eq(inboxes.id, q.inbox), eq(inboxes.organizationId, access.organizationId)));
      if (!inbox) throw notFound("Inbox not found.");
    }
    const cursor = decodeCursor(q.cursor);
    const keyword = q.keyword?.trim();
    const me = c.var.principal.userId;
    const order = listOrder(q.view === "waiting", cursor);
    const rows = await selectConversationViews(db)
      .where(
        and(
          eq(conversations.organizationId, access.organizationId),
          q.inbox ? eq(conversations.inboxId, q.inbox) : undefined,
          q.chatbot ? eq(conversations.chatbotId, q.chatbot) : undefined,
          q.contact ? eq(conversations.contactId, q.contact) : undefined,
          q.status ? eq(conversations.status, q.status) : undefined,
          q.progressStatus ? eq(conversations.progressStatus, q.progressStatus) : undefined,
          q.isTest ? eq(conversations.isTest, q.isTest === "true") : undefined,
          q.assignee === "none"
            ? isNull(conversations.assigneeId)
            : q.assignee
              ? eq(conversations.assigneeId, q.assignee === "me" ? me : q.assignee)
              : undefined,
          q.team ? eq(conversations.teamId, q.team) : undefined,
          q.view ? viewCondition(q.view, me) : undefined,
          // `+` keeps SQLite from the created_at index: walking (organization, id) newest first needs no sort.
          q.startDate ? sql`+${conversations.createdAt} >= ${parseDate(q.startDate)}` : undefined,
          q.endDate ? sql`+${conversations.createdAt} <= ${parseDate(q.endDate, true)}` : undefined,
          order.after,
          q.label ? hasLabel(q.label) : undefined,
          keyword ? keywordCondition(access.organizationId, keyword) : undefined,
        ),
      )
      .orderBy(...order.by)
      .limit(q.pageSize + 1);
    return c.json(cursorResponse(c, cursor, q.pageSize, rows.map(conversationRecord), order.key), 200);
  });
