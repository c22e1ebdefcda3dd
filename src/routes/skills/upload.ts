import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { ApiError, badRequest, fieldError, forbidden } from "../../lib/errors";
import { acceptOnly } from "../../middleware/content-type";
import { authorize } from "../../services/access";
import { readSkillPackage, SKILL_LIMITS, SkillPackageError } from "../../services/skills/package";
import { requireFreeSkillName, storeSkillPackage } from "../../services/skills/store";
import { shownFilename } from "../../services/uploads/store";
import { checkAttachedTools, checkSkillGroups, parseFormIdList } from "../../services/skills/write";
import { SKILLS_TAG, SkillUploadForm, SkillUploadResult } from "./schema";

const route = createRoute({
  method: "post",
  path: "/skills/upload/",
  tags: [SKILLS_TAG],
  summary: "Upload a skill package",
  description:
    "Needs `skill.manage`. Multipart `file`: a .zip holding `SKILL.md` (YAML front matter with `name`, " +
    "`description`, optional `when_to_use`, then " +
    `markdown instructions) and resource files, at the root or in one top folder (macOS's \`__MACOSX/\` and ` +
    `\`.DS_Store\` are left out). At most ${SKILL_LIMITS.zipBytes} bytes zipped, ` +
    `${SKILL_LIMITS.entries} entries, ${SKILL_LIMITS.expandedBytes} bytes expanded ` +
    `(${SKILL_LIMITS.fileBytes} per file). A bad zip, a zip bomb, unsafe paths (\`../\`, absolute), a missing ` +
    "SKILL.md, name or description, a name a skill's edit would refuse (more than one line), instructions longer " +
    `than the ${SKILL_LIMITS.instructionsChars} characters an edit takes, or unknown ` +
    "tool ids are 400 and nothing is stored. `name` is unique in the organization, a global skill's among the " +
    "global skills (409). Non-owners must give " +
    "the skill to one of their own groups. A zip that would take the organization past its plan's upload bytes is " +
    "403 `permission_denied`, nothing stored.",
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
    const access = await authorize(c, "skill.manage");
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
    const attached = parseFormIdList(text("attachedToolIds"), "attachedToolIds");
    const toolIds = await checkAttachedTools(db, access, attached, isGlobal);
    const groupField = text("groups");
    const groupIds = isGlobal
      ? undefined
      : await checkSkillGroups(
          db,
          access,
          groupField === undefined ? undefined : parseFormIdList(groupField, "groups"),
          true,
        );
    const organizationId = isGlobal ? null : access.organizationId;
    await requireFreeSkillName(db, organizationId, pkg.name);
    const filename = shownFilename(file.name, "skill.zip");
    const { id, resourceCount: count } = await storeSkillPackage(c.env, db, {
      organizationId,
      createdById: c.var.principal.userId,
      filename,
      bytes,
      pkg,
      links: { groupIds, toolIds },
    });
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
