import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { forbidden } from "../../lib/errors";
import { authorize } from "../../services/access";
import { createSkill } from "../../services/skills/change";
import { skillView } from "../../services/skills/views";
import { skillRecord, SkillSchema } from "../../services/records/skills";
import { SKILLS_TAG, SkillCreate } from "./schema";

const route = createRoute({
  method: "post",
  path: "/skills/",
  tags: [SKILLS_TAG],
  summary: "Create a skill by hand",
  description:
    "Needs `skill.manage`. A skill written in the API rather than uploaded (`source` manual, no resources). " +
    "`name` is unique in the organization, a global skill's among the global skills (409); " +
    "non-owners must give it to one of their own groups.",
  request: jsonBody(SkillCreate),
  responses: { 201: json(SkillSchema, "The created skill"), ...errorResponses(400, 403, 409) },
});

export const registerCreateSkill = (r: Router) =>
  r.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const access = await authorize(c, "skill.manage");
    if (body.isGlobal && !c.var.principal.isStaff) throw forbidden("Only platform staff can create global skills.");
    const row = await createSkill(c.var.db, access, c.var.principal.userId, body);
    return c.json(skillRecord(await skillView(c.var.db, access, c.var.principal.isStaff, row)), 201);
  });
