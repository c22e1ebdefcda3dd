import { and, eq, type SQL } from "drizzle-orm";
import type { Db } from "../../env";
import { toolGroups, tools } from "../../db/schema";
import { forbidden, notFound } from "../../lib/errors";
import { isUuid } from "../../lib/ids";
import { can, type OrgAccess } from "../access";
import { groupLinksOf, globalOrReachableCondition } from "../links";

export type ToolRow = typeof tools.$inferSelect;

/** Tools given to groups (`tool_groups`). */
export const toolGroupLinks = groupLinksOf(toolGroups, toolGroups.toolId);

/**
 * The tools the caller sees (globalOrReachableCondition with `tool.view`); creators must give a tool to one of their
 * groups, so they keep seeing it.
 */
export const visibleToolsCondition = (access: OrgAccess): SQL =>
  globalOrReachableCondition(access, tools, toolGroupLinks, "tool.view");

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

/** The tool for a change or a delete: 404 unless the caller sees it; a global tool is platform staff's (403). */
export async function getToolToManage(
  db: Db,
  access: OrgAccess,
  id: string,
  isStaff: boolean,
  action: "change" | "delete",
): Promise<ToolRow> {
  const row = await getToolForRead(db, access, id);
  if (!canManageTool(access, row, isStaff)) throw forbidden(`Only platform staff can ${action} global tools.`);
  return row;
}
