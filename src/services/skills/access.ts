import { skillGroups, skills } from "../../db/schema";
import { globalResourceAccess } from "../global-resources";
import { groupLinksOf } from "../links";

export type SkillRow = typeof skills.$inferSelect;

/** Skills given to groups (`skill_groups`). */
export const skillGroupLinks = groupLinksOf(skillGroups, skillGroups.skillId);

const skillAccess = globalResourceAccess({
  table: skills,
  links: skillGroupLinks,
  view: "skill.view",
  manage: "skill.manage",
  notFound: "Skill not found.",
  plural: "skills",
});

/** The skills the caller sees (globalOrReachableCondition with `skill.view`), as for tools. */
export const visibleSkillsCondition = skillAccess.visibleCondition;
export const getVisibleSkill = skillAccess.getVisible;
/** The skill if the caller can see it, else 404. */
export const getSkillForRead = skillAccess.getForRead;
/** Global skills are platform staff's to change. */
export const canManageSkill = skillAccess.canManage;
/** The skill for a change or a delete: 404 unless the caller sees it; a global skill is platform staff's (403). */
export const getSkillToManage = skillAccess.getToManage;
