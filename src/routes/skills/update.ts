import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getSkillToManage } from "../../services/skills/access";
import { skillGroupIds, updateSkill } from "../../services/skills/store";
import { checkAttachedTools, checkSkillGroups } from "../../services/skills/write";
import { skillView } from "../../services/skills/views";
import { skillRecord, SkillSchema } from "../../services/records/skills";
import { referencedIds } from "../../services/links";
import { SKILLS_TAG, SkillPatch, SkillWrite } from "./schema";
import { definedFields } from "../../lib/patch";

const routeFor = (method: "put" | "patch") =>
  createRoute({
    method,
    path: "/skills/{id}/",
    tags: [SKILLS_TAG],
    summary: method === "put" ? "Replace a skill's settings" : "Update some settings of a skill",
    description:
      "Needs `skill.manage` and a skill you can see (global skills: platform staff only). " +
      (method === "put" ? "`name` and `description` are required; " : "") +
      "fields left out keep their value; `attachedToolIds` and `groups`, when given, replace the lists. The " +
      "package's resources stay.",
    request: { params: IdParams, ...jsonBody(method === "put" ? SkillWrite : SkillPatch) },
    responses: { 200: json(SkillSchema, "The updated skill"), ...errorResponses(400, 403, 404, 409) },
  });

export function registerUpdateSkill(r: Router) {
  for (const route of [routeFor("put"), routeFor("patch")]) {
    r.openapi(route, async (c) => {
      const db = c.var.db;
      const access = await authorize(c, "skill.manage");
      const current = await getSkillToManage(db, access, c.req.valid("param").id, c.var.principal.isStaff, "change");
      const body = c.req.valid("json");
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
      const row = await updateSkill(db, current, values, { groupIds, toolIds });
      return c.json(skillRecord(await skillView(db, access, c.var.principal.isStaff, row)), 200);
    });
  }
}
