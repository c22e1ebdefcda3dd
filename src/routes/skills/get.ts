import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getSkillForRead } from "../../services/skills/access";
import { skillView } from "../../services/skills/views";
import { skillRecord, SkillSchema } from "../../services/records/skills";
import { SKILLS_TAG } from "./schema";

const route = createRoute({
  method: "get",
  path: "/skills/{id}/",
  tags: [SKILLS_TAG],
  summary: "Get a skill",
  description:
    "Needs `skill.view` and a skill you can see. The detail adds the instructions, the package and the " +
    "resources as objects.",
  request: { params: IdParams },
  responses: { 200: json(SkillSchema, "The skill"), ...errorResponses(403, 404) },
});

export const registerGetSkill = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "skill.view");
    const row = await getSkillForRead(c.var.db, access, c.req.valid("param").id);
    return c.json(skillRecord(await skillView(c.var.db, access, c.var.principal.isStaff, row)), 200);
  });
