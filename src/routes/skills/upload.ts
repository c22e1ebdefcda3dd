import { createRoute } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { ApiError, badRequest, conflict, fieldError, forbidden, isUniqueViolation } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import { chunk } from "../../lib/sql";
import { skillResources, skills } from "../../db/schema";
import { acceptOnly } from "../../middleware/content-type";
import { currentAccess, requirePermission } from "../../services/access";
import { readSkillPackage, SKILL_LIMITS, SkillPackageError } from "../../services/skills/package";
import {
  checkAttachedTools,
  checkSkillGroups,
  parseToolIdList,
  skillLinkStatements,
} from "../../services/skills/write";
import { skillObjectKey } from "../../services/skills/storage";
import { SKILLS_TAG, SkillUploadForm, SkillUploadResult } from "./schema";

const route = createRoute({
  method: "post",
  path: "/skills/upload/",
  tags: [SKILLS_TAG],
  summary: "Upload a skill package",
  description:
    "Needs `skill.manage`. Multipart `file`: a .zip holding `SKILL.md` (YAML front matter with `name`, `description`, optional `when_to_use`, then " +
    `markdown instructions) and resource files. At most ${SKILL_LIMITS.zipBytes} bytes zipped, ${SKILL_LIMITS.entries} entries, ${SKILL_LIMITS.expandedBytes} bytes expanded ` +
    `(${SKILL_LIMITS.fileBytes} per file). A bad zip, a zip bomb, unsafe paths (\`../\`, absolute), a missing SKILL.md, name or description, or unknown ` +
    "tool ids are 400 and nothing is stored. `name` is unique in the organization (409). Non-owners must give the skill to one of their own groups.",
  middleware: [
    acceptOnly(["multipart"], { required: true, maxMultipartBytes: SKILL_LIMITS.zipBytes + 64 * 1024 }),
  ] as const,
  request: {
    body: {
      required: false,
      description: "multipart/form-data",
      content: { "multipart/form-data": { schema: SkillUploadForm } },
    },
  },
  responses: { 201: json(SkillUploadResult, "The created skill"), ...errorResponses(400, 403, 409, 413, 415) },
});

export const registerUploadSkill = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await currentAccess(c);
    requirePermission(access, "skill.manage");
    const form = await c.req.formData();
    const file = form.get("file");
    if (!file || typeof file === "string") throw fieldError("file", "Required: the skill package (a .zip file part).");
    if (file.size > SKILL_LIMITS.zipBytes)
      throw new ApiError(413, "payload_too_large", `The package is larger than ${SKILL_LIMITS.zipBytes} bytes.`);
    const text = (name: string) => {
      const v = form.get(name);
      return typeof v === "string" ? v : undefined;
    };
    const isGlobal = text("isGlobal") === "true";
    if (isGlobal && !c.var.principal.isStaff) throw forbidden("Only platform staff can create global skills.");
    const bytes = new Uint8Array(await file.arrayBuffer());
    let pkg;
    try {
      pkg = readSkillPackage(bytes);
    } catch (err) {
      if (err instanceof SkillPackageError) throw badRequest(err.message, { file: [err.message] });
      throw err;
    }
    const toolIds = await checkAttachedTools(db, access, parseToolIdList(text("attachedToolIds")));
    const groupField = text("groups");
    const groupIds = isGlobal
      ? undefined
      : await checkSkillGroups(db, access, groupField === undefined ? undefined : parseIdList(groupField), true);
    const organizationId = isGlobal ? null : access.organizationId;
    const [taken] = await db
      .select({ id: skills.id })
      .from(skills)
      .where(
        and(
          organizationId ? eq(skills.organizationId, organizationId) : isNull(skills.organizationId),
          eq(skills.name, pkg.name),
        ),
      );
    if (taken) throw conflict(`A skill named "${pkg.name}" already exists.`);

    const id = uuidv7();
    const now = Date.now();
    const filename = (file.name.split(/[\\/]/).pop() ?? "").trim().slice(0, 255) || "skill.zip";
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
      await c.env.FILES.put(packageKey, bytes, { httpMetadata: { contentType: "application/zip" } });
      written.push(packageKey);
      for (const [i, res] of pkg.resources.entries()) {
        await c.env.FILES.put(resources[i].objectKey, res.bytes, { httpMetadata: { contentType: res.mimeType } });
        written.push(resources[i].objectKey);
      }
      await db.batch([
        db.insert(skills).values({
          id,
          organizationId,
          createdById: c.var.principal.userId,
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
        ...skillLinkStatements(db, id, { groupIds, toolIds }, false),
      ]);
    } catch (err) {
      // Nothing half-written: the objects go when the rows could not be stored.
      await Promise.allSettled(chunk(written, 500).map((keys) => c.env.FILES.delete(keys)));
      if (isUniqueViolation(err)) throw conflict(`A skill named "${pkg.name}" already exists.`);
      throw err;
    }
    const count = resources.length;
    return c.json(
      {
        id,
        name: pkg.name,
        description: pkg.description,
        message: `Skill uploaded with ${count} resource${count === 1 ? "" : "s"}.`,
      },
      201,
    );
  });

/** Ids of a form field: comma-separated or a JSON array (of ids or `{id}`). */
function parseIdList(raw: string): string[] {
  try {
    return parseToolIdList(raw);
  } catch {
    throw fieldError("groups", "A JSON array of group ids, or ids separated by commas.");
  }
}
