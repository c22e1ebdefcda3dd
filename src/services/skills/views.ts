import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../env";
import { skillResources, skillTools, tools } from "../../db/schema";
import { inChunks } from "../../lib/sql";
import type { OrgAccess } from "../access";
import { creatorsOf, type IdName, linkedGroups } from "../view-parts";
import { usableToolsCondition } from "../tools/chatbot-tools";
import { canManageSkill, type SkillRow, skillGroupLinks } from "./access";

export type SkillResourceRow = typeof skillResources.$inferSelect;
export interface AttachedTool {
  id: string;
  name: string | null;
  description: string;
  displayName: string;
  toolType: string;
}

export interface SkillView {
  row: SkillRow;
  createdBy: IdName | null;
  groups: IdName[];
  attachedTools: AttachedTool[];
  resources: SkillResourceRow[];
  canManage: boolean;
}

/** What a skill record shows besides its own columns; groups of other organizations never show. */
export async function skillViews(db: Db, access: OrgAccess, isStaff: boolean, rows: SkillRow[]): Promise<SkillView[]> {
  const ids = rows.map((r) => r.id);
  const [createdBy, groupsOf, toolLinks, resources] = await Promise.all([
    creatorsOf(db, rows),
    linkedGroups(db, access, skillGroupLinks, ids),
    inChunks(ids, (part) =>
      db
        .select({
          skillId: skillTools.skillId,
          id: tools.id,
          name: tools.name,
          description: tools.description,
          displayName: tools.displayName,
          toolType: tools.toolType,
        })
        .from(skillTools)
        .innerJoin(tools, eq(tools.id, skillTools.toolId))
        // Only tools the caller's organization can use: a global skill must not show another organization's own.
        .where(and(inArray(skillTools.skillId, part), usableToolsCondition(access.organizationId)))
        .orderBy(asc(tools.displayName), asc(tools.id)),
    ),
    inChunks(ids, (part) =>
      db.select().from(skillResources).where(inArray(skillResources.skillId, part)).orderBy(asc(skillResources.path)),
    ),
  ]);
  return rows.map((row) => ({
    row,
    // Global skills show "System" as their author (spec).
    createdBy: row.organizationId === null ? { id: "", name: "System" } : createdBy(row),
    groups: groupsOf(row.id),
    attachedTools: toolLinks.filter((l) => l.skillId === row.id).map(({ skillId: _, ...t }) => t),
    resources: resources.filter((r) => r.skillId === row.id),
    canManage: canManageSkill(access, row, isStaff),
  }));
}

export const skillView = async (db: Db, access: OrgAccess, isStaff: boolean, row: SkillRow) =>
  (await skillViews(db, access, isStaff, [row]))[0];
