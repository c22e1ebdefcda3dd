import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { conflict, forbidden, isUniqueViolation } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import { skills } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import { checkAttachedTools, checkSkillGroups, skillLinkStatements } from "../../services/skills/write";
import { skillView } from "../../services/skills/views";
import { skillRecord } from "../../services/records/skills";
import { SKILLS_TAG, SkillCreate, SkillSchema } from "./schema";

const route = createRoute({
  method: "post",
  path: "/skills/",
  tags: [SKILLS_TAG],
  summary: "Create a skill by hand",
  description:
    "Needs `skill.manage`. A skill written in the API rather than uploaded (`source` manual, no resources). `name` is unique in the organization (409); " +
    "non-owners must give it to one of their own groups.",
  request: jsonBody(SkillCreate),
  responses: { 201: json(SkillSchema, "The created skill"), ...errorResponses(400, 403, 409) },
});

export const registerCreateSkill = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const body = c.req.valid("json");
    const access = await currentAccess(c);
    requirePermission(access, "skill.manage");
    if (body.isGlobal && !c.var.principal.isStaff) throw forbidden("Only platform staff can create global skills.");
    const toolIds = await checkAttachedTools(db, access, body.attachedToolIds ?? undefined);
    const groupIds = body.isGlobal
      ? undefined
      : await checkSkillGroups(
          db,
          access,
          body.groups === undefined ? undefined : (body.groups ?? []).map((g) => g.id),
          true,
        );
    const id = uuidv7();
    try {
      const [[row]] = await db.batch([
        db
          .insert(skills)
          .values({
            id,
            organizationId: body.isGlobal ? null : access.organizationId,
            createdById: c.var.principal.userId,
            name: body.name,
            description: body.description,
            whenToUse: body.whenToUse ?? "",
            instructions: body.instructions ?? "",
            source: "manual",
          })
          .returning(),
        ...skillLinkStatements(db, id, { groupIds, toolIds }, false),
      ]);
      return c.json(skillRecord(await skillView(db, access, c.var.principal.isStaff, row)), 201);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`A skill named "${body.name}" already exists.`);
      throw err;
    }
  });
