import { createRoute } from "@hono/zod-openapi";
import { and, count, desc, or } from "drizzle-orm";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { pageOf, pageParams, pageResponse } from "../../lib/pagination";
import { contains } from "../../lib/sql";
import { skills } from "../../db/schema";
import { currentAccess, requirePermission } from "../../services/access";
import { visibleSkillsCondition } from "../../services/skills/access";
import { skillViews } from "../../services/skills/views";
import { skillListRecord } from "../../services/records/skills";
import { SKILLS_TAG, SkillListItem, SkillListQuery } from "./schema";

const route = createRoute({
  method: "get",
  path: "/skills/",
  tags: [SKILLS_TAG],
  summary: "List the skills you can see",
  description:
    "Needs `skill.view`. Newest first: the organization's skills (owners: all; others: through their groups) and the platform's global skills. " +
    "`search` matches name, description and whenToUse. Resources are listed as paths.",
  request: { query: SkillListQuery },
  responses: { 200: json(pageOf(SkillListItem, "SkillPage"), "Page of skills"), ...errorResponses(400, 403, 404) },
});

export const registerListSkills = (r: Router) =>
  r.openapi(route, async (c) => {
    const db = c.var.db;
    const access = await currentAccess(c);
    requirePermission(access, "skill.view");
    const q = c.req.valid("query");
    const p = pageParams(q);
    const where = and(
      visibleSkillsCondition(access),
      q.search
        ? or(
            contains(skills.name, q.search),
            contains(skills.description, q.search),
            contains(skills.whenToUse, q.search),
          )
        : undefined,
    );
    const [[{ n }], rows] = await Promise.all([
      db.select({ n: count() }).from(skills).where(where),
      db
        .select()
        .from(skills)
        .where(where)
        .orderBy(desc(skills.createdAt), desc(skills.id))
        .limit(p.limit)
        .offset(p.offset),
    ]);
    const views = await skillViews(db, access, c.var.principal.isStaff, rows);
    return c.json(pageResponse(c, p, n, views.map(skillListRecord)), 200);
  });
