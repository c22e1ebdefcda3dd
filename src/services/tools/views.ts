import type { Db } from "../../env";
import type { OrgAccess } from "../access";
import { creatorsOf, type IdName, linkedGroups } from "../view-parts";
import { canManageTool, type ToolRow, toolGroupLinks } from "./access";

export interface ToolView {
  row: ToolRow;
  createdBy: IdName | null;
  groups: IdName[];
  canManage: boolean;
}

/** What a tool record shows besides its own columns; groups of other organizations never show. */
export async function toolViews(db: Db, access: OrgAccess, isStaff: boolean, rows: ToolRow[]): Promise<ToolView[]> {
  const [createdBy, groupsOf] = await Promise.all([
    creatorsOf(db, rows),
    linkedGroups(
      db,
      access,
      toolGroupLinks,
      rows.map((r) => r.id),
    ),
  ]);
  return rows.map((row) => ({
    row,
    createdBy: createdBy(row),
    groups: groupsOf(row.id),
    canManage: canManageTool(access, row, isStaff),
  }));
}

export const toolView = async (db: Db, access: OrgAccess, isStaff: boolean, row: ToolRow) =>
  (await toolViews(db, access, isStaff, [row]))[0];
