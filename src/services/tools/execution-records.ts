import { and, asc, count, desc, eq, gte, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbots, toolExecutionRecords, tools } from "../../db/schema";
import { type PageWindow, paginate } from "../../db/paginate";
import { notFound } from "../../lib/errors";
import { isUuid } from "../../lib/ids";
import { contains } from "../../lib/sql";
import { parseDate } from "../../lib/time";
import type { OrgAccess } from "../access";
import { visibleChatbotsCondition } from "../chatbots/visibility";
import { visibleToolsCondition } from "./access";

export type ToolExecutionRow = typeof toolExecutionRecords.$inferSelect;

/**
 * The records the caller sees: all of the organization's for owners; for other members (with
 * `tool.view`) those of tools they can see, and of built-in tools (knowledge search) of assistants
 * they can see.
 */
export function visibleRecordsCondition(access: OrgAccess, userId: string): SQL {
  const inOrganization = eq(toolExecutionRecords.organizationId, access.organizationId);
  if (access.isOwner) return inOrganization;
  const visibleTool = sql`${toolExecutionRecords.toolId} in
    (select ${tools.id} from ${tools} where ${visibleToolsCondition(access)})`;
  const visibleBot = sql`${toolExecutionRecords.chatbotId} in
    (select ${chatbots.id} from ${chatbots} where ${visibleChatbotsCondition(access, userId)})`;
  return and(inOrganization, or(visibleTool, and(isNull(toolExecutionRecords.toolId), visibleBot)))!;
}

export interface RecordFilters {
  chatbot?: string;
  tool?: string;
  toolType?: string;
  status?: string;
  query?: string;
  startDate?: string;
  endDate?: string;
}

export function recordFilterCondition(f: RecordFilters, toolId?: string): SQL | undefined {
  return and(
    toolId ? eq(toolExecutionRecords.toolId, toolId) : undefined,
    f.chatbot ? eq(toolExecutionRecords.chatbotId, f.chatbot) : undefined,
    f.tool ? eq(toolExecutionRecords.toolId, f.tool) : undefined,
    f.toolType ? eq(toolExecutionRecords.toolType, f.toolType) : undefined,
    f.status ? eq(toolExecutionRecords.status, f.status as ToolExecutionRow["status"]) : undefined,
    f.query
      ? or(
          contains(toolExecutionRecords.chatbotName, f.query),
          contains(toolExecutionRecords.toolName, f.query),
          contains(toolExecutionRecords.toolDisplayName, f.query),
          contains(toolExecutionRecords.messageText, f.query),
        )
      : undefined,
    f.startDate ? gte(toolExecutionRecords.createdAt, parseDate(f.startDate)) : undefined,
    f.endDate ? lte(toolExecutionRecords.createdAt, parseDate(f.endDate, true)) : undefined,
  );
}

/** One record the caller may see, else 404; the route has declared the permission its use needs. */
export async function getRecordForRead(
  db: Db,
  access: OrgAccess,
  userId: string,
  id: string,
  toolId?: string,
): Promise<ToolExecutionRow> {
  if (!isUuid(id)) throw notFound("Tool execution record not found.");
  const [row] = await db
    .select()
    .from(toolExecutionRecords)
    .where(
      and(
        eq(toolExecutionRecords.id, id),
        toolId ? eq(toolExecutionRecords.toolId, toolId) : undefined,
        visibleRecordsCondition(access, userId),
      ),
    );
  if (!row) throw notFound("Tool execution record not found.");
  return row;
}

/** A page of the records the caller sees, newest first, filtered (and scoped to one tool when given). */
export function listToolExecutionRecords(
  db: Db,
  access: OrgAccess,
  userId: string,
  filters: RecordFilters,
  toolId: string | undefined,
  window: PageWindow,
) {
  const where = and(visibleRecordsCondition(access, userId), recordFilterCondition(filters, toolId));
  return paginate(window, db.select({ n: count() }).from(toolExecutionRecords).where(where), ({ limit, offset }) =>
    db
      .select()
      .from(toolExecutionRecords)
      .where(where)
      .orderBy(desc(toolExecutionRecords.createdAt), desc(toolExecutionRecords.id))
      .limit(limit)
      .offset(offset),
  );
}

/** Filter options of the record list: the distinct assistants or tools of the records the caller sees, by name. */
export function recordOptions(db: Db, access: OrgAccess, userId: string, kind: "chatbots" | "tools", toolId?: string) {
  const where = and(
    visibleRecordsCondition(access, userId),
    toolId ? eq(toolExecutionRecords.toolId, toolId) : undefined,
  );
  if (kind === "chatbots") {
    return db
      .selectDistinct({ id: chatbots.id, name: chatbots.name })
      .from(toolExecutionRecords)
      .innerJoin(chatbots, eq(chatbots.id, toolExecutionRecords.chatbotId))
      .where(and(where, isNotNull(toolExecutionRecords.chatbotId)))
      .orderBy(asc(chatbots.name), asc(chatbots.id));
  }
  return db
    .selectDistinct({ id: tools.id, name: tools.name, displayName: tools.displayName, toolType: tools.toolType })
    .from(toolExecutionRecords)
    .innerJoin(tools, eq(tools.id, toolExecutionRecords.toolId))
    .where(where)
    .orderBy(asc(tools.displayName), asc(tools.id))
    .then((rows) => rows.map((t) => ({ ...t, name: t.name ?? "" })));
}

/**
 * Stores a pending desktop call's result: the updated record (null when it was no longer pending)
 * and whether it was the last pending call of its reply, which may then continue.
 */
export async function completeDesktopCall(
  db: Db,
  record: ToolExecutionRow,
  result: { status: ToolExecutionRow["status"]; output: unknown; error: string | null },
): Promise<{ row: ToolExecutionRow | null; lastOfReply: boolean }> {
  const [row] = await db
    .update(toolExecutionRecords)
    .set({
      status: result.status,
      output: result.output as never,
      error: result.error,
      durationMs: Date.now() - record.createdAt,
      updatedAt: Date.now(),
    })
    .where(and(eq(toolExecutionRecords.id, record.id), eq(toolExecutionRecords.status, "pending")))
    .returning();
  if (!row) return { row: null, lastOfReply: false };
  if (!row.messageId || !row.conversationId) return { row, lastOfReply: false };
  const [waiting] = await db
    .select({ id: toolExecutionRecords.id })
    .from(toolExecutionRecords)
    .where(and(eq(toolExecutionRecords.messageId, row.messageId), eq(toolExecutionRecords.status, "pending")))
    .limit(1);
  return { row, lastOfReply: !waiting };
}
