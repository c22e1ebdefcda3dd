import { and, eq, gte, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbots, toolExecutionRecords, tools } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { isUuid } from "../../lib/ids";
import { contains } from "../../lib/sql";
import { parseDate } from "../../lib/time";
import { requirePermission, type OrgAccess } from "../access";
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
  const visibleTool = sql`${toolExecutionRecords.toolId} in (select ${tools.id} from ${tools} where ${visibleToolsCondition(access)})`;
  const visibleBot = sql`${toolExecutionRecords.chatbotId} in (select ${chatbots.id} from ${chatbots} where ${visibleChatbotsCondition(access, userId)})`;
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

/** One record the caller may see (403 without `tool.view`, else 404). */
export async function getRecordForRead(
  db: Db,
  access: OrgAccess,
  userId: string,
  id: string,
  toolId?: string,
): Promise<ToolExecutionRow> {
  requirePermission(access, "tool.view");
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
