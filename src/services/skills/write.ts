import { eq, isNull, type SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Bindings, Db } from "../../env";
import { chatbotSkills, skillResources, skills, skillTools, tools } from "../../db/schema";
import { fieldError } from "../../lib/errors";
import { isUuid } from "../../lib/ids";
import { chunk } from "../../lib/sql";
import { type OrgAccess, withPermission } from "../access";
import { checkGroupAssignment } from "../groups";
import { linkStatements, linksOf, requireKnownRows } from "../links";
import { checkVisibleTools } from "../tools/chatbot-tools";
import { skillGroupLinks, visibleSkillsCondition } from "./access";

/** `groups` of a skill body (see checkGroupAssignment). */
export const checkSkillGroups = (
  db: Db,
  access: OrgAccess,
  wanted: string[] | undefined,
  creating: boolean,
  current: string[] = [],
) => checkGroupAssignment(db, access, wanted, creating, current, "a skill");

/**
 * Attached tool ids (see checkVisibleTools). A global skill is every organization's: it takes global tools only, or
 * one organization's own tool (staff's, say) would be listed to all of them.
 */
export async function checkAttachedTools(
  db: Db,
  access: OrgAccess,
  wanted: string[] | undefined,
  globalSkill: boolean,
) {
  const ids = await checkVisibleTools(db, access, wanted, "attachedToolIds");
  if (ids?.length && globalSkill)
    await requireKnownRows(
      db,
      tools,
      ids,
      isNull(tools.organizationId),
      "attachedToolIds",
      "A global skill takes global tools only, not",
    );
  return ids;
}

/**
 * A list of ids in a field of the upload form (`attachedToolIds` of tools, `groups` of groups): comma-separated ids, or
 * a JSON array of ids or `{id}` objects; at most 50. Refusals name the field.
 */
export function parseFormIdList(raw: string | null | undefined, field: "attachedToolIds" | "groups"): string[] {
  const noun = field === "groups" ? "group" : "tool";
  const value = (raw ?? "").trim();
  if (!value) return [];
  let items: unknown[];
  if (value.startsWith("[")) {
    try {
      const parsed = JSON.parse(value);
      if (!Array.isArray(parsed)) throw new Error();
      items = parsed;
    } catch {
      throw fieldError(field, `A JSON array of ${noun} ids, or ids separated by commas.`);
    }
  } else items = value.split(",");
  const ids = items
    .map((i) =>
      typeof i === "string"
        ? i.trim()
        : typeof i === "object" && i && typeof (i as { id?: unknown }).id === "string"
          ? (i as { id: string }).id
          : "",
    )
    .filter(Boolean);
  if (ids.length > 50) throw fieldError(field, `At most 50 ${noun}s.`);
  if (ids.some((id) => !isUuid(id))) throw fieldError(field, `Each id must be a ${noun}'s uuid.`);
  return ids;
}

/** Statements setting (or, with `replace`, replacing) the groups and attached tools given. */
export const skillLinkStatements = (
  db: Db,
  skillId: string,
  links: { groupIds?: string[]; toolIds?: string[] },
  replace: boolean,
): BatchItem<"sqlite">[] => [
  ...linkStatements(db, skillGroupLinks, skillId, links.groupIds, replace),
  ...linkStatements(db, linksOf(skillTools, "skillId", "toolId"), skillId, links.toolIds, replace),
];

/** Deletes a skill and then its stored package and resources (R2). */
export async function deleteSkill(env: Bindings, db: Db, skill: { id: string; packageKey: string | null }) {
  const resources = await db
    .select({ key: skillResources.objectKey })
    .from(skillResources)
    .where(eq(skillResources.skillId, skill.id));
  await db.delete(skills).where(eq(skills.id, skill.id));
  const keys = [...resources.map((r) => r.key), ...(skill.packageKey ? [skill.packageKey] : [])];
  for (const part of chunk(keys, 500)) await env.FILES.delete(part);
}

/** The `skills: [{id}]` of an assistant body: skills the caller can see, else 400 naming them. */
export async function checkChatbotSkills(
  db: Db,
  access: OrgAccess,
  body: { skills?: { id: string }[] | null },
): Promise<string[] | undefined> {
  if (body.skills === undefined) return undefined;
  const wanted = [...new Set((body.skills ?? []).map((s) => s.id))];
  const visible = withPermission(access, "skill.view");
  await requireKnownRows(db, skills, wanted, visibleSkillsCondition(visible), "skills", "Unknown skill");
  return wanted;
}

/** Statements replacing (all, or those `replace` selects) or setting an assistant's skills. */
export const chatbotSkillStatements = (db: Db, chatbotId: string, skillIds: string[], replace: boolean | SQLWrapper) =>
  linkStatements(db, linksOf(chatbotSkills, "chatbotId", "skillId"), chatbotId, skillIds, replace);
