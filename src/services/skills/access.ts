import { skillGroups, skills } from "../../db/schema";
import { globalResourceAccess } from "../global-resources";
import { groupLinksOf } from "../links";

export type SkillRow = typeof skills.$inferSelect;

/** Skills given to groups (`skill_groups`). */
export const skillGroupLinks = groupLinksOf(skillGroups, "skillId");

/** Who sees a skill (`skill.view`, as for tools) and who changes it (global skills are platform staff's). */
export const {
  visibleCondition: visibleSkillsCondition,
  getVisible: getVisibleSkill,
  getForRead: getSkillForRead,
  canManage: canManageSkill,
  getToManage: getSkillToManage,
} = globalResourceAccess({
  table: skills,
  links: skillGroupLinks,
  view: "skill.view",
  manage: "skill.manage",
  notFound: "Skill not found.",
  plural: "skills",
});
