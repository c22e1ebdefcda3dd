import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../env";
import { groups, toolGroups, users } from "../../db/schema";
import { inChunks } from "../../lib/sql";
import type { OrgAccess } from "../access";
import { canManageTool, type ToolRow } from "./access";

type IdName = { id: string; name: string };

export interface ToolView {
  row: ToolRow;
  createdBy: IdName | null;
  groups: IdName[];
  canManage: boolean;
}

/** What a tool record shows besides its own columns; groups of other organizations never show. */
export async function toolViews(db: Db, access: OrgAccess, isStaff: boolean, rows: ToolRow[]): Promise<ToolView[]> {
  const [creators, links] = await Promise.all([
    inChunks(
      rows.map((r) => r.createdById).filter((x): x is string => !!x),
      (ids) => db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids)),
    ),
    inChunks(
      rows.map((r) => r.id),
      (ids) =>
        db
          .select({
            toolId: toolGroups.toolId,
            id: groups.id,
            name: groups.name,
            organizationId: groups.organizationId,
          })
          .from(toolGroups)
          .innerJoin(groups, eq(groups.id, toolGroups.groupId))
          .where(inArray(toolGroups.toolId, ids))
          .orderBy(asc(groups.name), asc(groups.id)),
    ),
  ]);
  const names = new Map(creators.map((u) => [u.id, u.name]));
  return rows.map((row) => ({
    row,
    createdBy: row.createdById ? { id: row.createdById, name: names.get(row.createdById) ?? "" } : null,
    groups: links
      .filter((l) => l.toolId === row.id && l.organizationId === access.organizationId)
      .map(({ id, name }) => ({ id, name })),
    canManage: canManageTool(access, row, isStaff),
  }));
}

export const toolView = async (db: Db, access: OrgAccess, isStaff: boolean, row: ToolRow) =>
  (await toolViews(db, access, isStaff, [row]))[0];
