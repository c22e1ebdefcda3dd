import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../env";
import { skillGroups, skills } from "../../db/schema";
import { notFound } from "../../lib/errors";
import { isUuid } from "../../lib/ids";
import { can, type OrgAccess } from "../access";
import { type GroupLinks, reachableThroughGroups } from "../links";

export type SkillRow = typeof skills.$inferSelect;

/** Skills given to groups (`skill_groups`). */
export const skillGroupLinks = {
  table: skillGroups,
  owner: skillGroups.skillId,
  group: skillGroups.groupId,
} satisfies GroupLinks;

/**
 * The skills the caller sees, like tools (CONTRACT section 4): global skills and, in the
 * organization, all of them for owners; other members need `skill.view` and see a skill only
 * through one of their groups.
 */
export function visibleSkillsCondition(access: OrgAccess): SQL {
  const inOrganization = eq(skills.organizationId, access.organizationId);
  if (access.isOwner) return or(isNull(skills.organizationId), inOrganization)!;
  if (!can(access, "skill.view")) return sql`0`;
  return or(
    isNull(skills.organizationId),
    and(inOrganization, reachableThroughGroups(skills.id, skillGroupLinks, access.memberId)),
  )!;
}

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
