import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { forbidden } from "../../lib/errors";
import { formFile, formText } from "../../lib/form";
import { acceptOnly } from "../../middleware/content-type";
import { authorize } from "../../services/access";
import { SKILL_LIMITS } from "../../services/skills/package";
import { uploadSkill } from "../../services/skills/change";
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
    const access = await authorize(c, "skill.manage");
    const form = await c.req.formData();
    const file = formFile(form, "Required: the skill package (a .zip file part).", SKILL_LIMITS.zipBytes, "package");
    const isGlobal = formText(form, "isGlobal") === "true";
    if (isGlobal && !c.var.principal.isStaff) throw forbidden("Only platform staff can create global skills.");
    const fields = { isGlobal, attachedToolIds: formText(form, "attachedToolIds"), groups: formText(form, "groups") };
    return c.json(await uploadSkill(c.env, c.var.db, access, c.var.principal.userId, file, fields), 201);
  });
