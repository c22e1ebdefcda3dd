// Creating skills (from a body, or from an uploaded package) and changing them: the tools they load and the groups
// they are given to checked first (write.ts), then stored with their links in one batch (store.ts).
import type { Bindings, Db } from "../../env";
import { badRequest } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import { definedFields } from "../../lib/patch";
import type { OrgAccess } from "../access";
import { referencedIds } from "../links";
import { shownFilename } from "../uploads/store";
import { getSkillToManage } from "./access";
import { readSkillPackage, SkillPackageError } from "./package";
import { insertSkill, requireFreeSkillName, skillGroupIds, storeSkillPackage, updateSkill } from "./store";
import { checkAttachedTools, checkSkillGroups, parseFormIdList } from "./write";

/** A skill's body as the create, PUT and PATCH endpoints read it; a field left out stays as it is. */
export interface SkillInput {
  name?: string;
  description?: string;
  whenToUse?: string | null;
  instructions?: string | null;
  attachedToolIds?: string[] | null;
  groups?: { id: string }[] | null;
}

/** Creates a skill written by hand (a global one for `isGlobal`, else the organization's, given to its groups). */
export async function createSkill(
  db: Db,
  access: OrgAccess,
  userId: string,
  body: SkillInput & { name: string; description: string; isGlobal?: boolean },
) {
  const toolIds = await checkAttachedTools(db, access, body.attachedToolIds ?? undefined, Boolean(body.isGlobal));
  const groupIds = body.isGlobal ? undefined : await checkSkillGroups(db, access, referencedIds(body.groups), true);
  const values = {
    id: uuidv7(),
    organizationId: body.isGlobal ? null : access.organizationId,
    createdById: userId,
    name: body.name,
    description: body.description,
    whenToUse: body.whenToUse ?? "",
    instructions: body.instructions ?? "",
    source: "manual" as const,
  };
  return insertSkill(db, values, { groupIds, toolIds });
}

/**
 * Changes a skill the caller may manage (a global one: platform staff) and returns it: fields left out stay, null
 * texts are emptied, and the tool and group lists given replace the stored ones (a global skill has no groups).
 */
export async function changeSkill(db: Db, access: OrgAccess, id: string, isStaff: boolean, body: SkillInput) {
  const current = await getSkillToManage(db, access, id, isStaff, "change");
  const toolIds = await checkAttachedTools(
    db,
    access,
    body.attachedToolIds === undefined ? undefined : (body.attachedToolIds ?? []),
    current.organizationId === null,
  );
  const groupIds =
    current.organizationId === null || body.groups === undefined
      ? undefined
      : await checkSkillGroups(db, access, referencedIds(body.groups), false, await skillGroupIds(db, current.id));
  const values = definedFields({
    name: body.name,
    description: body.description,
    whenToUse: body.whenToUse === null ? "" : body.whenToUse,
    instructions: body.instructions === null ? "" : body.instructions,
  });
  return updateSkill(db, current, values, { groupIds, toolIds });
}

/** The text fields of the upload form, as sent. */
export interface SkillUploadFields {
  isGlobal: boolean;
  attachedToolIds?: string;
  groups?: string;
}

/**
 * Creates a skill from an uploaded package (a global one for `isGlobal`): a package that does not read (a bad zip, a
 * zip bomb, unsafe paths, no SKILL.md, ...) is 400 naming `file`, a name taken 409, and nothing is stored then.
 * Returns the upload's answer.
 */
export async function uploadSkill(
  env: Bindings,
  db: Db,
  access: OrgAccess,
  userId: string,
  file: File,
  fields: SkillUploadFields,
) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let pkg: ReturnType<typeof readSkillPackage>;
  try {
    pkg = readSkillPackage(bytes);
  } catch (err) {
    if (err instanceof SkillPackageError) throw badRequest(err.message, { file: [err.message] });
    throw err;
  }
  const attached = parseFormIdList(fields.attachedToolIds, "attachedToolIds");
  const toolIds = await checkAttachedTools(db, access, attached, fields.isGlobal);
  const groupIds = fields.isGlobal
    ? undefined
    : await checkSkillGroups(
        db,
        access,
        fields.groups === undefined ? undefined : parseFormIdList(fields.groups, "groups"),
        true,
      );
  const organizationId = fields.isGlobal ? null : access.organizationId;
  await requireFreeSkillName(db, organizationId, pkg.name);
  const { id, resourceCount: count } = await storeSkillPackage(env, db, {
    organizationId,
    createdById: userId,
    filename: shownFilename(file.name, "skill.zip"),
    bytes,
    pkg,
    links: { groupIds, toolIds },
  });
  const message = `Skill uploaded with ${count} resource${count === 1 ? "" : "s"}.`;
  return { id, name: pkg.name, description: pkg.description, message };
}
