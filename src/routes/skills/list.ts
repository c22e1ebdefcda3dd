import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { authorize } from "../../services/access";
import { listSkills } from "../../services/skills/store";
import { skillViews } from "../../services/skills/views";
import { skillListRecord, SkillListItem } from "../../services/records/skills";
import { SKILLS_TAG, SkillListQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/skills/",
  tags: [SKILLS_TAG],
  summary: "List the skills you can see",
  description:
    "Needs `skill.view`. Newest first: the organization's skills (owners: all; others: through their groups) " +
    "and the platform's global skills. " +
    "`search` matches name, description and whenToUse. Resources are listed as paths.",
  request: { query: SkillListQuery },
  responses: { 200: json(pageOf(SkillListItem, "SkillPage"), "Page of skills"), ...errorResponses(400, 403, 404) },
});

export const registerListSkills = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await authorize(c, "skill.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const page = await listSkills(db, access, q.search, p);
    const views = await skillViews(db, access, c.var.principal.isStaff, page.items);
    return c.json(pageResponse(c, p, page.count, views.map(skillListRecord)), 200);
  });
