import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../env";
import { groups, skillGroups, skillResources, skillTools, tools, users } from "../../db/schema";
import { inChunks } from "../../lib/sql";
import type { OrgAccess } from "../access";
import { canManageSkill, type SkillRow } from "./access";

type IdName = { id: string; name: string };
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
  const [creators, groupLinks, toolLinks, resources] = await Promise.all([
    inChunks(
      rows.map((r) => r.createdById).filter((x): x is string => !!x),
      (part) => db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, part)),
    ),
    inChunks(ids, (part) =>
      db
        .select({
          skillId: skillGroups.skillId,
          id: groups.id,
          name: groups.name,
          organizationId: groups.organizationId,
        })
        .from(skillGroups)
        .innerJoin(groups, eq(groups.id, skillGroups.groupId))
        .where(inArray(skillGroups.skillId, part))
        .orderBy(asc(groups.name), asc(groups.id)),
    ),
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
        .where(inArray(skillTools.skillId, part))
        .orderBy(asc(tools.displayName), asc(tools.id)),
    ),
    inChunks(ids, (part) =>
      db.select().from(skillResources).where(inArray(skillResources.skillId, part)).orderBy(asc(skillResources.path)),
    ),
  ]);
  const names = new Map(creators.map((u) => [u.id, u.name]));
  return rows.map((row) => ({
    row,
    // Global skills show "System" as their author (spec).
    createdBy:
      row.organizationId === null
        ? { id: "", name: "System" }
        : row.createdById
          ? { id: row.createdById, name: names.get(row.createdById) ?? "" }
          : null,
    groups: groupLinks
      .filter((l) => l.skillId === row.id && l.organizationId === access.organizationId)
      .map(({ id, name }) => ({ id, name })),
    attachedTools: toolLinks.filter((l) => l.skillId === row.id).map(({ skillId: _, ...t }) => t),
    resources: resources.filter((r) => r.skillId === row.id),
    canManage: canManageSkill(access, row, isStaff),
  }));
}

export const skillView = async (db: Db, access: OrgAccess, isStaff: boolean, row: SkillRow) =>
  (await skillViews(db, access, isStaff, [row]))[0];
