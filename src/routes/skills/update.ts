import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { changeSkill } from "../../services/skills/change";
import { skillView } from "../../services/skills/views";
import { skillRecord, SkillSchema } from "../../services/records/skills";
import { SKILLS_TAG, SkillPatch, SkillWrite } from "./schema";

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
      const access = await authorize(c, "skill.manage");
      const { id } = c.req.valid("param");
      const row = await changeSkill(c.var.db, access, id, c.var.principal.isStaff, c.req.valid("json"));
      return c.json(skillRecord(await skillView(c.var.db, access, c.var.principal.isStaff, row)), 200);
    });
  }
}
