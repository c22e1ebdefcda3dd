import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, noContent } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { getSkillToManage } from "../../services/skills/access";
import { deleteSkill } from "../../services/skills/write";
import { SKILLS_TAG } from "./schema";

const route = createRoute({
  method: "delete",
  path: "/skills/{id}/",
  tags: [SKILLS_TAG],
  summary: "Delete a skill",
  description:
    "Needs `skill.manage` and a skill you can see (global skills: platform staff only). Its package and " +
    "resources are deleted; assistants stop offering it at once.",
  request: { params: IdParams },
  responses: { 204: noContent, ...errorResponses(403, 404) },
});

export const registerDeleteSkill = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "skill.manage");
    const row = await getSkillToManage(c.var.db, access, c.req.valid("param").id, c.var.principal.isStaff, "delete");
    await deleteSkill(c.env, c.var.db, row);
    return c.body(null, 204);
  });
