import { and, eq, isNull, or } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { skillResources, skills } from "../../db/schema";
import { type PageWindow, newestFirstPage } from "../../db/paginate";
import { conflict, isUniqueViolation } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import { chunk, contains } from "../../lib/sql";
import type { OrgAccess } from "../access";
import { groupIdsOf, writeWithLinks } from "../links";
import { type SkillRow, skillGroupLinks, visibleSkillsCondition } from "./access";
import type { SkillPackage } from "./package";
import { skillObjectKey } from "./storage";
import { skillLinkStatements } from "./write";
import { pastControlPlaneCap, pastControlPlaneRoom, requireControlPlaneRoom } from "../uploads/allowance";

type SkillLinks = { groupIds?: string[]; toolIds?: string[] };

/** A page of the skills the caller sees, newest first; `search` matches name, description and whenToUse. */
export function listSkills(db: Db, access: OrgAccess, search: string | undefined, window: PageWindow) {
  const where = and(
    visibleSkillsCondition(access),
    search
      ? or(contains(skills.name, search), contains(skills.description, search), contains(skills.whenToUse, search))
      : undefined,
  );
  return newestFirstPage(db, skills, where, window);
}

/** The ids of the groups a skill is given to. */
export const skillGroupIds = (db: Db, skillId: string) => groupIdsOf(db, skillGroupLinks, skillId);

/** The 409 naming the skill whose name is taken. */
const nameTaken = (name: string | undefined) => conflict(`A skill named "${name}" already exists.`);

/** Inserts a skill with its links in one batch; 409 when its name is taken. */
export async function insertSkill(
  db: Db,
  values: typeof skills.$inferInsert & { id: string },
  links: SkillLinks,
): Promise<SkillRow> {
  const [row] = await writeWithLinks(
    db,
    db.insert(skills).values(values).returning(),
    skillLinkStatements(db, values.id, links, false),
    () => nameTaken(values.name),
  );
  return row;
}

/** Updates a skill and replaces the links given, in one batch; 409 when its name is taken. */
export async function updateSkill(
  db: Db,
  current: Pick<SkillRow, "id">,
  values: Partial<typeof skills.$inferInsert>,
  links: SkillLinks,
): Promise<SkillRow> {
  const { id } = current;
  const [row] = await writeWithLinks(
    db,
    db
      .update(skills)
      .set({ ...values, updatedAt: Date.now() })
      .where(eq(skills.id, id))
      .returning(),
    skillLinkStatements(db, id, links, true),
    () => nameTaken(values.name),
  );
  return row;
}

/**
 * 409 when the organization (null: the global skills) already has a skill of that name: asked before a package's
 * objects are stored. Writes rely on the unique indexes (skills_org_name_uq, and skills_global_name_uq for the global
 * skills, whose NULL organization the first takes for distinct), which hold two writes at one instant apart too.
 */
export async function requireFreeSkillName(db: Db, organizationId: string | null, name: string) {
  const [taken] = await db
    .select({ id: skills.id })
    .from(skills)
    .where(
      and(
        organizationId ? eq(skills.organizationId, organizationId) : isNull(skills.organizationId),
        eq(skills.name, name),
      ),
    );
  if (taken) throw nameTaken(name);
}

/**
 * Stores an uploaded package: the zip and its resources in R2, then the skill, its resource rows and
 * links in one batch. Nothing half-written: the objects go when the rows could not be stored. An organization's
 * package that would take it past its plan's upload bytes is refused (403) before anything is stored, or, when other
 * writes took the room meanwhile, taken back in that batch.
 */
export async function storeSkillPackage(
  env: Bindings,
  db: Db,
  upload: {
    organizationId: string | null;
    createdById: string;
    filename: string;
    bytes: Uint8Array;
    pkg: SkillPackage;
    links: SkillLinks;
  },
): Promise<{ id: string; resourceCount: number }> {
  const { organizationId, filename, bytes, pkg } = upload;
  const capped = organizationId ? await requireControlPlaneRoom(env, organizationId, bytes.byteLength) : null;
  const id = uuidv7();
  const now = Date.now();
  const packageKey = skillObjectKey(organizationId, id, "package", filename);
  const resources = pkg.resources.map((res) => ({
    id: uuidv7(),
    skillId: id,
    path: res.path,
    objectKey: skillObjectKey(organizationId, id, "files", res.path),
    size: res.bytes.byteLength,
    mimeType: res.mimeType,
    createdAt: now,
  }));
  const written: string[] = [];
  try {
    await env.FILES.put(packageKey, bytes, { httpMetadata: { contentType: "application/zip" } });
    written.push(packageKey);
    for (const [i, res] of pkg.resources.entries()) {
      await env.FILES.put(resources[i].objectKey, res.bytes, { httpMetadata: { contentType: res.mimeType } });
      written.push(resources[i].objectKey);
    }
    const stored = await db.batch([
      db.insert(skills).values({
        id,
        organizationId,
        createdById: upload.createdById,
        name: pkg.name,
        description: pkg.description,
        whenToUse: pkg.whenToUse,
        instructions: pkg.instructions,
        source: "upload",
        packageKey,
        packageName: filename,
        packageSize: bytes.byteLength,
        packageUploadedAt: now,
        createdAt: now,
        updatedAt: now,
      }),
      // A resource row has 7 columns: 10 rows stay under D1's 100 bound parameters.
      ...chunk(resources, 10).map((part) => db.insert(skillResources).values(part)),
      ...skillLinkStatements(db, id, upload.links, false),
      // Its resources and links go with it (their keys cascade).
      ...(capped
        ? [
            db
              .delete(skills)
              .where(and(eq(skills.id, id), pastControlPlaneCap(db, capped)))
              .returning({ id: skills.id }),
          ]
        : []),
    ]);
    if (capped && (stored[stored.length - 1] as { id: string }[]).length)
      throw await pastControlPlaneRoom(env, capped, bytes.byteLength);
  } catch (err) {
    await Promise.allSettled(chunk(written, 500).map((keys) => env.FILES.delete(keys)));
    throw isUniqueViolation(err) ? nameTaken(pkg.name) : err;
  }
  return { id, resourceCount: resources.length };
}
