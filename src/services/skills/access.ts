import { and, eq, type SQL } from "drizzle-orm";
import type { Db } from "../../env";
import { skillGroups, skills } from "../../db/schema";
import { forbidden, notFound } from "../../lib/errors";
import { isUuid } from "../../lib/ids";
import { can, type OrgAccess } from "../access";
import { groupLinksOf, globalOrReachableCondition } from "../links";

export type SkillRow = typeof skills.$inferSelect;

/** Skills given to groups (`skill_groups`). */
export const skillGroupLinks = groupLinksOf(skillGroups, skillGroups.skillId);

/** The skills the caller sees (globalOrReachableCondition with `skill.view`), as for tools. */
export const visibleSkillsCondition = (access: OrgAccess): SQL =>
  globalOrReachableCondition(access, skills, skillGroupLinks, "skill.view");

export async function getVisibleSkill(db: Db, access: OrgAccess, id: string): Promise<SkillRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select()
    .from(skills)
    .where(and(eq(skills.id, id), visibleSkillsCondition(access)));
  return row ?? null;
}

/** The skill if the caller can see it, else 404; the route has declared the permission its use needs. */
export async function getSkillForRead(db: Db, access: OrgAccess, id: string): Promise<SkillRow> {
  const row = await getVisibleSkill(db, access, id);
  if (!row) throw notFound("Skill not found.");
  return row;
}

/** Global skills are platform staff's to change. */
export const canManageSkill = (access: OrgAccess, row: Pick<SkillRow, "organizationId">, isStaff: boolean) =>
  row.organizationId === null ? isStaff : can(access, "skill.manage");

/** The skill for a change or a delete: 404 unless the caller sees it; a global skill is platform staff's (403). */
export async function getSkillToManage(
  db: Db,
  access: OrgAccess,
  id: string,
  isStaff: boolean,
  action: "change" | "delete",
): Promise<SkillRow> {
  const row = await getSkillForRead(db, access, id);
  if (!canManageSkill(access, row, isStaff)) throw forbidden(`Only platform staff can ${action} global skills.`);
  return row;
}
