import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../env";
import { toolGroups, tools } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { isUuid } from "../../lib/ids";
import { can, type OrgAccess } from "../access";
import { type GroupLinks, reachableThroughGroups } from "../links";

export type ToolRow = typeof tools.$inferSelect;

/** Tools given to groups (`tool_groups`). */
export const toolGroupLinks = {
  table: toolGroups,
  owner: toolGroups.toolId,
  group: toolGroups.groupId,
} satisfies GroupLinks;

/**
 * The tools the caller sees (CONTRACT section 4): global tools and, in the organization of
 * `access`, all of its tools for owners; other members need `tool.view` and see a tool only through
 * one of their groups (creators must give it to one of theirs, so they keep seeing it).
 */
export function visibleToolsCondition(access: OrgAccess): SQL {
  const inOrganization = eq(tools.organizationId, access.organizationId);
  if (access.isOwner) return or(isNull(tools.organizationId), inOrganization)!;
  if (!can(access, "tool.view")) return sql`0`;
  return or(
    isNull(tools.organizationId),
    and(inOrganization, reachableThroughGroups(tools.id, toolGroupLinks, access.memberId)),
  )!;
}

export async function getVisibleTool(db: Db, access: OrgAccess, id: string): Promise<ToolRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select()
    .from(tools)
    .where(and(eq(tools.id, id), visibleToolsCondition(access)));
  return row ?? null;
}

/** The tool if the caller can see it, else 404; the route has declared the permission its use needs. */
export async function getToolForRead(db: Db, access: OrgAccess, id: string): Promise<ToolRow> {
  const row = await getVisibleTool(db, access, id);
  if (!row) throw notFound("Tool not found.");
  return row;
}

/** Whether the caller may change or delete the tool: global tools are platform staff's. */
export const canManageTool = (access: OrgAccess, row: Pick<ToolRow, "organizationId">, isStaff: boolean) =>
  row.organizationId === null ? isStaff : can(access, "tool.manage");
